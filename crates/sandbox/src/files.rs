//! File modes and owners for what children may read and write.

use std::io;
use std::path::Path;

/// Makes `dir` and everything in it readable by `group` (0750 and 0640, that group), or by
/// the grader's uid alone when `group` is `None`.
pub(crate) fn hand_over(dir: &Path, group: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir)?;
    let mode = if meta.is_dir() {
        0o750
    } else if meta.is_file() {
        0o640
    } else {
        return Ok(());
    };
    if let Some(gid) = group {
        std::os::unix::fs::lchown(dir, None, Some(gid))?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode))?;
    if meta.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            hand_over(&entry?.path(), group)?;
        }
    }
    Ok(())
}

/// Makes `dir` and everything in it readable by every uid (directories 0755, files 0644):
/// for the grader's own files (the child program and the test inputs, no secret), inside a
/// work directory that others cannot list.
///
/// # Errors
/// The I/O error of the first file whose mode cannot be changed.
pub fn open_up(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(dir)?;
    if meta.is_dir() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))?;
        for entry in std::fs::read_dir(dir)? {
            open_up(&entry?.path())?;
        }
    } else if meta.is_file() {
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o644))?;
    }
    Ok(())
}
