//! File modes and owners for what children may read and write.

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Makes `dir` and everything in it readable by every uid (directories 0755, files 0644):
/// for the grader's own files (the child program and the test inputs, no secret), inside a
/// work directory that others cannot list.
///
/// # Errors
/// The I/O error of the first file whose mode cannot be changed.
pub fn open_up(dir: &Path) -> io::Result<()> {
    set_tree(dir, [0o755, 0o644], None)
}

/// Gives `path` and everything beneath it `modes` (a directory's, a regular file's) and, when
/// given, `group`; symbolic links and other files are left alone, never followed.
pub(crate) fn set_tree(path: &Path, modes: [u32; 2], group: Option<u32>) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    let mode = if meta.is_dir() {
        modes[0]
    } else if meta.is_file() {
        modes[1]
    } else {
        return Ok(());
    };
    if let Some(gid) = group {
        std::os::unix::fs::lchown(path, None, Some(gid))?;
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    if meta.is_dir() {
        for entry in std::fs::read_dir(path)? {
            set_tree(&entry?.path(), modes, group)?;
        }
    }
    Ok(())
}
