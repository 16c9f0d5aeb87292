//! The seccomp layer: a filter, compiled by seccompiler, that keeps a child off the network
//! and away from other processes.
//!
//! Every system call is allowed except these, which fail with `EPERM`:
//! * `socket` and `socketpair` for any address family but `AF_UNIX` (no TCP, UDP, raw,
//!   netlink, packet... sockets: no network at all);
//! * `ptrace`, `process_vm_readv`, `process_vm_writev` (no reading or steering another
//!   process), `kcmp`, `pidfd_getfd`;
//! * `io_uring_setup`/`enter`/`register` (io_uring can open sockets and files without the
//!   system calls above), `bpf`, `perf_event_open`, `userfaultfd`, `keyctl`, `add_key`,
//!   `request_key`;
//! * `unshare`, `setns`, `mount`, `umount2`, `pivot_root`, `chroot` (no new namespaces).
//!
//! The filter also checks the architecture, so a 32-bit system call cannot slip past it (it
//! kills the process), and on x86_64 denies the x32 numbers of the same calls.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The system calls denied whatever their arguments.
const DENIED: &[i64] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_pidfd_getfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
];

/// Returns the filter compiled for this machine's architecture.
///
/// # Errors
/// seccompiler's message when the architecture is not one it supports (x86_64, aarch64,
/// riscv64) or the filter does not compile.
pub(crate) fn program() -> Result<BpfProgram, String> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(|e| e.to_string())?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&n| (n, vec![])).collect();
    for call in [libc::SYS_socket, libc::SYS_socketpair] {
        let not_unix = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )
        .and_then(|c| SeccompRule::new(vec![c]))
        .map_err(|e| e.to_string())?;
        rules.insert(call, vec![not_unix]);
    }
    if arch == TargetArch::x86_64 {
        // The x32 ABI shares x86_64's audit architecture, with numbers offset by this bit.
        const X32_SYSCALL_BIT: i64 = 0x4000_0000;
        let x32: Vec<_> = rules
            .iter()
            .map(|(n, r)| (n | X32_SYSCALL_BIT, r.clone()))
            .collect();
        rules.extend(x32);
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| e.to_string())?;
    BpfProgram::try_from(filter).map_err(|e| e.to_string())
}

/// Returns `program` as the bytes bubblewrap's `--seccomp FD` reads: the `sock_filter`
/// instructions in native byte order, one after the other.
pub(crate) fn to_bytes(program: &BpfProgram) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(program.len() * 8);
    for insn in program {
        bytes.extend_from_slice(&insn.code.to_ne_bytes());
        bytes.push(insn.jt);
        bytes.push(insn.jf);
        bytes.extend_from_slice(&insn.k.to_ne_bytes());
    }
    bytes
}

/// Installs `program` on the calling thread, after setting no_new_privs. Only makes two
/// system calls (prctl, seccomp) and allocates nothing, so it may run between fork and exec.
pub(crate) fn apply(program: &BpfProgram) -> std::io::Result<()> {
    seccompiler::apply_filter(program).map_err(|e| match e {
        seccompiler::Error::Prctl(e) | seccompiler::Error::Seccomp(e) => e,
        _ => std::io::Error::from_raw_os_error(libc::EINVAL),
    })
}

/// Returns whether the kernel offers seccomp filters (`PR_GET_SECCOMP` answers).
pub(crate) fn available() -> bool {
    // SAFETY: PR_GET_SECCOMP only reads the calling thread's seccomp mode.
    unsafe { libc::prctl(libc::PR_GET_SECCOMP) >= 0 }
}
