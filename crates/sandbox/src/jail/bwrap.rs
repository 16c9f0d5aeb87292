//! bubblewrap's command line for one child.

use std::path::Path;

use super::{
    environment, Jail, Mounts, GRADER_DIR, SCRATCH_DIR, SUBMISSION_DIR, TMPFS_BYTES, TMP_NAME,
};

impl Jail {
    /// Returns bubblewrap's arguments before the program: the namespaces, what is mounted
    /// where (read-only system directories, the program's home, the two tmpfs, the grader's
    /// and the submission's directories), the working directory and a clean environment.
    pub(super) fn bwrap_args(&self, mounts: &Mounts<'_>) -> Vec<String> {
        let mut args: Vec<String> = [
            "--unshare-all",
            "--unshare-user",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--ro-bind",
            "/usr",
            "/usr",
        ]
        .map(String::from)
        .to_vec();
        for dir in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            let path = Path::new(dir);
            match std::fs::read_link(path) {
                Ok(target) => {
                    args.extend(["--symlink".into(), target.display().to_string(), dir.into()])
                }
                Err(_) if path.is_dir() => {
                    args.extend(["--ro-bind".into(), dir.into(), dir.into()]);
                }
                Err(_) => {}
            }
        }
        if let Some(home) = &self.program_home {
            let home = home.display().to_string();
            args.extend(["--ro-bind".into(), home.clone(), home]);
        }
        let size = TMPFS_BYTES.to_string();
        let tmp = Path::new(SCRATCH_DIR).join(TMP_NAME).display().to_string();
        args.extend(
            [
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--size",
                &size,
                "--tmpfs",
                "/tmp",
                "--size",
                &size,
                "--tmpfs",
                SCRATCH_DIR,
                "--dir",
                &tmp,
                "--ro-bind",
                &mounts.grader.display().to_string(),
                GRADER_DIR,
                "--ro-bind",
                &mounts.submission.display().to_string(),
                SUBMISSION_DIR,
                "--chdir",
                SCRATCH_DIR,
                "--clearenv",
                "--hostname",
                "sandbox",
            ]
            .map(String::from),
        );
        for (name, value) in environment(Path::new(SCRATCH_DIR)) {
            args.extend([
                "--setenv".into(),
                name.into(),
                value.to_string_lossy().into_owned(),
            ]);
        }
        args
    }
}
