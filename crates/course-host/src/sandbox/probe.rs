//! What this machine allows, found out before anyone is graded. A probe
//! ([`probe`]) runs a short command as a student's program would run,
//! under one isolation on an empty folder, and says why it could not;
//! uid separation's preflight surveys what a program of a sandbox uid
//! could read and refuses a machine where that includes a copy of the
//! reference (or `--jobs` above 1 without Landlock, unless asked); and
//! [`check`] (`course grade --check-sandbox`) reports both, the kernel's
//! settings, and which promise each mode keeps here.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use course_content::lab::Unread;

use super::{
    Isolation, Job, Limits, Sandbox, Wanted, choose_from, confine, describe, is_root, run,
};

/// True when a user other than the owner and its group could reach
/// `path` (every folder above it lets others in, and the file itself lets
/// them read or run it): what a program under [`Isolation::Uid`] could
/// read.
pub fn open_to_others(path: &Path) -> bool {
    let Ok(full) = std::fs::canonicalize(path) else {
        return false;
    };
    let Ok(meta) = std::fs::metadata(&full) else {
        return false;
    };
    let want = if meta.is_dir() { 0o001 } else { 0o005 };
    if meta.mode() & want == 0 {
        return false;
    }
    full.ancestors()
        .skip(1)
        .all(|a| std::fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// The folders a program under uid separation may read, for the survey:
/// the whole machine without Landlock, its read view with it.
fn readable_roots(sb: &Sandbox) -> Vec<PathBuf> {
    if sb.landlock == 0 {
        return vec![PathBuf::from("/")];
    }
    confine::SYSTEM_READ
        .iter()
        .filter(|p| !p.starts_with("/proc") && !p.starts_with("/sys"))
        .map(PathBuf::from)
        .chain(sb.binds.iter().cloned())
        .collect()
}

/// Uid separation's check before anyone is graded: no copy of the
/// reference that a program could read or run, and, without Landlock,
/// no `--jobs` above 1 unless asked for. Returns the folders to clean
/// after each run.
pub(super) fn uid_preflight(sb: &Sandbox) -> Result<Vec<PathBuf>, String> {
    uid_preflight_of(sb, &survey_of(sb))
}

/// The survey of what a program under uid separation in `sb` could read.
fn survey_of(sb: &Sandbox) -> confine::Survey {
    let roots = readable_roots(sb);
    confine::survey(&roots, &sb.masks, &[sb.staging.path().to_path_buf()])
}

/// [`uid_preflight`] on a survey already made.
fn uid_preflight_of(sb: &Sandbox, found: &confine::Survey) -> Result<Vec<PathBuf>, String> {
    let roots = readable_roots(sb);
    if found.incomplete {
        return Err(format!(
            "the search for copies of the reference a student's program could read stopped after {} entries under {}; without Landlock (Linux 5.13 or later, allowed by the container) uid separation cannot be checked here",
            confine::SURVEY_ENTRIES,
            roots
                .iter()
                .map(|r| r.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if !found.exposed.is_empty() {
        let shown: Vec<String> = found
            .exposed
            .iter()
            .take(5)
            .map(|p| p.display().to_string())
            .collect();
        let more = found.exposed.len().saturating_sub(5);
        return Err(format!(
            "a student's program could read or run the reference: {}{}: make it unreadable to other users (chmod o-rwx, or keep it in a folder only the grader may enter){}",
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            if sb.landlock == 0 {
                "; this kernel (or container) refuses Landlock, so everything other users may read is readable"
            } else {
                ""
            }
        ));
    }
    if sb.landlock == 0 && sb.uids.all().len() > 1 && !sb.open_parallel {
        return Err(format!(
            "--jobs {} with uid separation and no Landlock: programs running at the same time could pass data through the folders every user may write ({}); use --jobs 1, or --sandbox-open-parallel to accept it",
            sb.uids.all().len(),
            confine::cleaned_folders(&found.writable)
                .iter()
                .take(4)
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let shared = confine::cleaned_folders(&found.writable);
    // Whatever an earlier run of these uids left goes before the first.
    for &u in sb.uids.all() {
        confine::clean_uid(u, &shared, sb.staging.path())?;
    }
    Ok(shared)
}

/// One promise of the sandbox and whether each mode keeps it here.
#[derive(Clone, Debug, Serialize)]
pub struct Guarantee {
    /// The promise.
    pub what: &'static str,
    /// With namespaces: `None` when it holds, else why not.
    pub namespaces: Option<String>,
    /// With uid separation: `None` when it holds, else why not.
    pub uid: Option<String>,
}

/// What `course grade --check-sandbox` found on this machine.
#[derive(Clone, Debug, Serialize)]
pub struct SandboxCheck {
    /// The kernel's release.
    pub kernel: String,
    /// Whether the grader runs as root.
    pub root: bool,
    /// The kernel settings that allow or restrict user namespaces.
    pub settings: Vec<(String, String)>,
    /// A run of `true` in new namespaces: `None` when it worked, else why not.
    pub namespaces: Option<String>,
    /// Whether the namespace sandbox has its own `/proc`.
    pub proc_mounted: bool,
    /// A run of `true` as a separate uid: `None` when it worked.
    pub uid: Option<String>,
    /// The kernel's Landlock ABI (0: none or refused).
    pub landlock: u32,
    /// Copies of the reference a program under uid separation could read
    /// or run (what the preflight refuses).
    pub exposed: Vec<PathBuf>,
    /// Each promise, mode by mode.
    pub guarantees: Vec<Guarantee>,
    /// What `--run` would use, described; `None`: nothing (it stops).
    pub chosen: Option<String>,
}

/// Tries each isolation with a run of `true` and says what works, and
/// which promise each keeps on this machine.
pub fn check(sb: &Sandbox) -> SandboxCheck {
    let read = |p: &str| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    let mut settings = Vec::new();
    for p in [
        "/proc/sys/user/max_user_namespaces",
        "/proc/sys/kernel/unprivileged_userns_clone",
        "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        "/proc/sys/kernel/sched_autogroup_enabled",
    ] {
        if let Some(v) = read(p) {
            settings.push((p.trim_start_matches("/proc/sys/").replace('/', "."), v));
        }
    }
    let namespaces = probe(sb, Isolation::Namespaces, "true").err();
    let proc_mounted = namespaces.is_none()
        && probe(sb, Isolation::Namespaces, "test -r /proc/self/status").is_ok();
    let mut uid_sb = sb.clone();
    // One survey, for the preflight and for the list of what it found.
    let found = is_root().then(|| survey_of(sb));
    let uid = uid_problem(sb)
        .or_else(|| match uid_preflight_of(sb, found.as_ref()?) {
            Ok(shared) => {
                uid_sb.shared = Arc::new(shared);
                None
            }
            Err(e) => Some(e),
        })
        .or_else(|| probe(&uid_sb, Isolation::Uid, "true").err());
    let chosen = choose_from(Wanted::Auto, namespaces.is_none(), uid.is_none())
        .ok()
        .map(|i| describe(i, sb.landlock));
    let autogroup = read("/proc/sys/kernel/sched_autogroup_enabled").as_deref() == Some("1");
    let guarantees = guarantees(
        namespaces.as_deref(),
        uid.as_deref(),
        sb.landlock,
        autogroup,
    );
    SandboxCheck {
        kernel: read("/proc/sys/kernel/osrelease").unwrap_or_default(),
        root: is_root(),
        settings,
        namespaces,
        proc_mounted,
        uid,
        landlock: sb.landlock,
        exposed: found.map(|f| f.exposed).unwrap_or_default(),
        guarantees,
        chosen,
    }
}

/// The promises, mode by mode, from what works here: `ns`/`uid` why the
/// mode does not work at all (`None`: it works), `landlock` the ABI.
fn guarantees(
    ns: Option<&str>,
    uid: Option<&str>,
    landlock: u32,
    autogroup: bool,
) -> Vec<Guarantee> {
    let (files, _, scoped) = confine::landlock_covers(landlock);
    let off = |_: &str| Some("the mode is unavailable here (see above)".to_string());
    let row = |what: &'static str, n: Option<String>, u: Option<String>| Guarantee {
        what,
        namespaces: ns.map_or(n, off),
        uid: uid.map_or(u, off),
    };
    let no_landlock = "no Landlock here";
    let cpu = (!autogroup).then(|| {
        "kernel.sched_autogroup_enabled is 0: runs share the CPU by process, not by run".to_string()
    });
    vec![
        row(
            "the reference (any readable course program, solutions/, the course data, the secret) is out of reach",
            None,
            (!files).then(|| format!("{no_landlock}: only files other users may not read are safe (the preflight checks the machine)")),
        ),
        row("another student's folder and input are out of reach, even while it runs", None, None),
        row(
            "no channel between runs (shared memory, /tmp, /dev/shm, sockets, signals)",
            None,
            (!(files && scoped)).then(|| format!("{}: folders every user may write are shared by runs at the same time (--jobs above 1 needs --sandbox-open-parallel)", if files { "Landlock older than ABI 6 (no scoping of abstract sockets and signals)" } else { no_landlock })),
        ),
        row("nothing a run made is left after it (files, System V IPC), checked after each run", None, None),
        row(
            "disk and files bounded (--file-limit, 4096 files beyond the student's folder)",
            None,
            (!files).then(|| format!("{no_landlock}: outside its own folders only each file is bounded, and removed after the run")),
        ),
        // seccomp refuses network sockets in both modes; Landlock's TCP
        // rules are a second wall where the kernel has them.
        row("no network (no TCP or UDP to any host, the grader's included)", None, None),
        row("no process outlives its run (the kill is checked)", None, None),
        row("each run its own CPU share beside a spinning neighbour", cpu.clone(), cpu),
        row("the grader's paths stay out of what a program can read (/proc/1/cmdline, the environment)", None, Some("the grader's command line is readable in /proc (paths, never contents)".into())),
    ]
}

/// Why uid separation is out of reach before it is tried, if it is.
pub(super) fn uid_problem(sb: &Sandbox) -> Option<String> {
    if !is_root() {
        Some("it needs the grader to run as root".into())
    } else if sb.uids.uid(0).is_none() {
        Some(
            "no uid of --sandbox-uid's range exists here (a user namespace that maps only root?)"
                .into(),
        )
    } else {
        None
    }
}

/// Runs `command` (with `sh -c` when it has a space) under `isolation`
/// on an empty folder: `Err` with why when it could not.
pub(super) fn probe(sb: &Sandbox, isolation: Isolation, command: &str) -> Result<(), String> {
    let dir = tempfile::Builder::new()
        .prefix("course-probe-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
        .map_err(|e| e.to_string())?;
    let words: Vec<String> = if command.contains(' ') {
        vec!["sh".into(), "-c".into(), format!("{command}; echo ok")]
    } else {
        vec!["sh".into(), "-c".into(), format!("{command} && echo ok")]
    };
    let sb = Sandbox {
        isolation,
        limits: Limits {
            wall: Duration::from_secs(10),
            ..sb.limits.clone()
        },
        ..sb.clone()
    };
    let r = run(
        &sb,
        &Job {
            words: &words,
            folder: dir.path(),
            stem: "probe",
            text: "",
            slot: 0,
        },
    );
    match r {
        Ok(s) if s.trim() == "ok" => Ok(()),
        Ok(s) => Err(format!("the probe printed {:?}", s.trim())),
        Err(Unread::Grader(s) | Unread::Student(s)) => Err(s),
    }
}
