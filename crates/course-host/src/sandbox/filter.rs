//! The seccomp filter a student's program runs under: a deny list of the
//! system calls a scheduler never needs and that reach past its own run
//! (tracing another process, mounting, new namespaces, kernel keys, BPF,
//! io_uring, loading modules, network sockets, System V and POSIX message
//! IPC, which outlive a process and are shared by every run of a uid).
//! Under uid separation alone, where no network namespace keeps abstract
//! sockets apart, `socket(AF_UNIX)` is denied too (`socketpair` stays).
//! A denied call fails with `EPERM`, so a
//! program that probes for them gets an ordinary error, not a crash;
//! `clone3` fails with `ENOSYS` so that the C library falls back to
//! `clone`, whose namespace flags the filter can see.
//!
//! The filter is built before the program's process is forked (building
//! allocates) and installed after `no_new_privs`, as the last step before
//! `execve`.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The system calls denied outright.
const DENIED: &[libc::c_long] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_syslog,
    libc::SYS_acct,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_fanotify_init,
    libc::SYS_quotactl,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_pidfd_getfd,
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmctl,
    libc::SYS_shmdt,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semtimedop,
    libc::SYS_semctl,
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_mq_open,
    libc::SYS_mq_unlink,
    libc::SYS_mq_timedsend,
    libc::SYS_mq_timedreceive,
    libc::SYS_mq_notify,
    libc::SYS_mq_getsetattr,
];

/// The namespace flags of `clone`, each denied on its own.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    0x80, // CLONE_NEWTIME
];

fn arch() -> Result<TargetArch, String> {
    if cfg!(target_arch = "x86_64") {
        Ok(TargetArch::x86_64)
    } else if cfg!(target_arch = "aarch64") {
        Ok(TargetArch::aarch64)
    } else {
        Err("no seccomp filter for this processor".into())
    }
}

/// The filters, in the order they are installed (the kernel runs every
/// one on each call, and the strictest answer wins); `shared_net`: the
/// program shares the grader's network namespace (uid separation), so
/// unix sockets are refused as well.
pub fn build(shared_net: bool) -> Result<Vec<BpfProgram>, String> {
    let arch = arch()?;
    let err = |e: seccompiler::BackendError| format!("seccomp filter: {e}");
    let mut denied: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&n| (n, vec![])).collect();
    // clone with any namespace flag set: one rule per flag, any may match.
    let mut clone_rules = Vec::new();
    for &flag in NAMESPACE_FLAGS {
        let set = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )
        .map_err(err)?;
        clone_rules.push(SeccompRule::new(vec![set]).map_err(err)?);
    }
    denied.insert(libc::SYS_clone, clone_rules);
    // Sockets of the network (not of the machine's own files): no run
    // reaches another host, nor a service of the grader's machine, even
    // where no network namespace could be made.
    let mut socket_rules = Vec::new();
    let mut families = vec![libc::AF_INET, libc::AF_INET6, libc::AF_PACKET];
    if shared_net {
        families.push(libc::AF_UNIX);
    }
    for family in families {
        let is = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, family as u64)
            .map_err(err)?;
        socket_rules.push(SeccompRule::new(vec![is]).map_err(err)?);
    }
    denied.insert(libc::SYS_socket, socket_rules);
    let eperm = SeccompAction::Errno(libc::EPERM as u32);
    let deny = SeccompFilter::new(denied, SeccompAction::Allow, eperm, arch).map_err(err)?;
    // clone3 passes its flags in memory, out of a filter's sight.
    let clone3 = SeccompFilter::new(
        BTreeMap::from([(libc::SYS_clone3, vec![])]),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::ENOSYS as u32),
        arch,
    )
    .map_err(err)?;
    let mut out = Vec::new();
    for f in [deny, clone3] {
        out.push(BpfProgram::try_from(f).map_err(err)?);
    }
    Ok(out)
}

/// Installs `filters` on the calling thread (after `no_new_privs`).
pub fn install(filters: &[BpfProgram]) -> Result<(), String> {
    for f in filters {
        seccompiler::apply_filter(f).map_err(|e| format!("seccomp: {e}"))?;
    }
    Ok(())
}
