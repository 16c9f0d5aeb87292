//! Sample downloads for the tests, written as the LMSs write them.

use std::io::Write;
use std::path::Path;

use zip::write::SimpleFileOptions;

/// One entry of a sample zip.
pub(crate) enum Entry<'a> {
    /// A file, deflated.
    File(&'a [u8]),
    /// A symbolic link to the target.
    Link(&'a str),
    /// A directory.
    Dir,
}

/// Returns a zip of `entries`, their names written as given (`../`, `/` and all).
pub(crate) fn zip_of(entries: &[(&str, Entry<'_>)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, entry) in entries {
        match entry {
            Entry::File(bytes) => {
                zip.start_file(*name, options).unwrap();
                zip.write_all(bytes).unwrap();
            }
            Entry::Link(target) => zip.add_symlink(*name, *target, options).unwrap(),
            Entry::Dir => zip.add_directory(*name, options).unwrap(),
        }
    }
    zip.finish().unwrap().into_inner()
}

/// Writes a zip of `entries` to `path`.
pub(crate) fn write_zip(path: &Path, entries: &[(&str, Entry<'_>)]) {
    std::fs::write(path, zip_of(entries)).unwrap();
}

/// A zip bomb's payload: 8 MiB of zeros, which deflate about a thousand times.
pub(crate) fn zeros() -> Vec<u8> {
    vec![0u8; 8 << 20]
}
