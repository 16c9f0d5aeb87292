use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

use super::*;

#[test]
fn results_keep_the_order_of_the_items() {
    // Later items finish first.
    let items: Vec<u64> = (0..12).collect();
    let got = WorkerPool::new(4).run(&items, |_, &n| {
        std::thread::sleep(Duration::from_millis(2 * (12 - n)));
        n * 10
    });
    let want: Vec<Result<u64, Panicked>> = items.iter().map(|n| Ok(n * 10)).collect();
    assert_eq!(got, want);
}

#[test]
fn done_hears_every_job_on_the_calling_thread() {
    let caller = std::thread::current().id();
    let mut heard = Vec::new();
    let got = WorkerPool::new(3).run_each(
        &["a", "b", "c", "d", "e"],
        |_, s| s.to_uppercase(),
        |i, r| {
            assert_eq!(std::thread::current().id(), caller);
            heard.push((i, r.clone()));
        },
    );
    heard.sort_by_key(|(i, _)| *i);
    let heard: Vec<_> = heard.into_iter().map(|(_, r)| r).collect();
    assert_eq!(heard, got);
}

#[test]
fn a_panic_becomes_an_error_and_loses_nothing_else() {
    let items: Vec<u32> = (0..20).collect();
    let got = WorkerPool::new(3).run(&items, |_, &n| {
        assert!(n % 7 != 3, "item {n} fails");
        n
    });
    assert_eq!(got.len(), 20);
    for (n, r) in items.iter().zip(&got) {
        match r {
            Err(e) => {
                assert_eq!(n % 7, 3);
                assert_eq!(e.message, format!("item {n} fails"));
                assert_eq!(e.to_string(), format!("a worker panicked: item {n} fails"));
            }
            Ok(v) => assert_eq!(v, n),
        }
    }
    assert_eq!(got.iter().filter(|r| r.is_err()).count(), 3);
}

#[test]
fn jobs_running_at_once_have_workers_of_their_own() {
    let running = Mutex::new(BTreeSet::new());
    let slots = Mutex::new(BTreeSet::new());
    let items: Vec<u32> = (0..24).collect();
    WorkerPool::new(3).run(&items, |worker, _| {
        let slot = worker.index();
        assert!(slot < 3);
        slots.lock().unwrap().insert(slot);
        assert!(
            running.lock().unwrap().insert(slot),
            "worker {slot} is taken"
        );
        std::thread::sleep(Duration::from_millis(2));
        running.lock().unwrap().remove(&slot);
    });
    assert!(!slots.into_inner().unwrap().is_empty());
}

#[test]
fn no_more_workers_than_items() {
    let slots = Mutex::new(BTreeSet::new());
    WorkerPool::new(8).run(&[(), ()], |worker, ()| {
        slots.lock().unwrap().insert(worker.index());
        std::thread::sleep(Duration::from_millis(5));
    });
    assert!(slots.into_inner().unwrap().iter().all(|&s| s < 2));
    let none: Vec<Result<(), Panicked>> = WorkerPool::new(2).run(&[] as &[u8], |_, _| ());
    assert!(none.is_empty());
    // A pool of no workers has one.
    assert_eq!(WorkerPool::new(0).run(&[1], |_, n| *n), [Ok(1)]);
}

#[test]
fn no_more_workers_than_a_block_of_uids_serves() {
    let max = crib_sandbox::MAX_WORKERS as usize;
    let items: Vec<usize> = (0..max * 4).collect();
    let (running, seen) = (Mutex::new(BTreeSet::new()), Mutex::new(BTreeSet::new()));
    let got = WorkerPool::new(usize::MAX).run(&items, |worker, &n| {
        seen.lock().unwrap().insert(worker.index());
        assert!(
            running.lock().unwrap().insert(worker),
            "{worker:?} is taken"
        );
        std::thread::sleep(Duration::from_millis(1));
        running.lock().unwrap().remove(&worker);
        n
    });
    assert_eq!(got, items.into_iter().map(Ok).collect::<Vec<_>>());
    assert!(seen.into_inner().unwrap().iter().all(|&w| w < max));
}

#[test]
fn map_keeps_the_order_in_chunks() {
    let items: Vec<u32> = (0..1001).collect();
    for workers in [1, 2, 3, 7, 2000] {
        let got = WorkerPool::new(workers).map(&items, |n| n * 3);
        assert_eq!(got, items.iter().map(|n| n * 3).collect::<Vec<_>>());
    }
    assert!(WorkerPool::new(4).map(&[] as &[u32], |n| *n).is_empty());
}

#[test]
fn map_passes_a_panic_on() {
    let items: Vec<u32> = (0..1001).collect();
    let panic = std::panic::catch_unwind(|| {
        WorkerPool::new(3).map(&items, |&n| {
            assert!(n != 500, "item {n} is bad");
            n
        })
    })
    .unwrap_err();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("item 500 is bad"), "{message}");
}
