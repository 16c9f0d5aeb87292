use super::*;

fn bars(svg: &str) -> usize {
    svg.matches("<rect").count() - svg.matches("fill=\"#FFFFFF\"").count()
}

#[test]
fn one_bar_per_occupied_bin() {
    let h = Bins {
        title: "total /70".into(),
        max: 70.0,
        counts: vec![0, 3, 0, 1, 7],
    };
    let svg = histogram_svg(&h, 400, 200);
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(svg.matches("fill=\"#0072B2\"").count(), 3, "{svg}");
    assert_eq!(bars(&svg), 3);
    assert!(svg.contains("total /70"));
    assert!(
        svg.contains("14\u{2013}28"),
        "bins are labelled with their marks: {svg}"
    );
}

#[test]
fn an_empty_histogram_draws_axes_without_bars() {
    let h = Bins {
        title: "none".into(),
        max: 20.0,
        counts: vec![0; 10],
    };
    let svg = histogram_svg(&h, 400, 200);
    assert!(svg.starts_with("<svg") && svg.contains("<line"), "{svg}");
    assert_eq!(svg.matches("fill=\"#0072B2\"").count(), 0);
}

#[test]
fn the_same_histogram_draws_the_same_bytes() {
    let h = Bins {
        title: "total /70".into(),
        max: 70.0,
        counts: vec![2, 3, 0, 1, 7, 4, 9, 5],
    };
    let first = histogram_svg(&h, 400, 200);
    // The bars were drawn in a HashMap's order, a new one each time.
    for _ in 0..8 {
        assert_eq!(histogram_svg(&h, 400, 200), first);
    }
}
