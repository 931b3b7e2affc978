//! Writing output files safely, for every command that writes files (`render`, `report`).
//!
//! A file is written to a fresh temporary name in its folder and renamed over its final name.
//! A full disk or an interrupted run therefore never leaves a truncated picture or page (the
//! temporary file is removed on an error), and a symbolic link at the final name is replaced by
//! the new file, never followed. Below the output folder the user named, hdp only uses real
//! folders: a symbolic link where it would create or clean a folder (a report's folder,
//! `steps/`) is an error, so no file outside the output is written, replaced or removed.

use anyhow::{anyhow, Result};
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Numbers the temporary files of this process.
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

/// Writes `content` to `path`: into a new temporary file beside it, then renamed over `path`
/// (which may be a symbolic link: the link is replaced, its target untouched). The folder must
/// exist.
pub fn write_file(path: &Path, content: &[u8]) -> Result<()> {
    let name = path
        .file_name()
        .ok_or_else(|| anyhow!("cannot write {}: not a file name", path.display()))?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let n = TEMPORARY.fetch_add(1, Ordering::Relaxed);
    let temporary_name = format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id());
    let temporary = dir.map_or_else(
        || PathBuf::from(&temporary_name),
        |d| d.join(&temporary_name),
    );
    // `create_new` fails on any existing name, a symbolic link included: nothing is followed.
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temporary)
        .and_then(|mut f| f.write_all(content).and_then(|()| f.flush()))
        .and_then(|()| fs::rename(&temporary, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&temporary);
        anyhow!("cannot write {}: {e}", path.display())
    })
}

/// Creates the output folder the user named, with its parents, when it does not exist. It is
/// used as given, a symbolic link to a folder included (the user's own choice).
pub fn make_output_dir(dir: &Path) -> Result<()> {
    if dir.as_os_str().is_empty() {
        return Ok(());
    }
    fs::create_dir_all(dir).map_err(|e| anyhow!("cannot create {}: {e}", dir.display()))
}

/// Makes `root/sub` a real folder (created when missing): `sub` is a single name, and neither
/// it nor anything hdp writes there may be a symbolic link.
pub fn make_sub_dir(root: &Path, sub: &str) -> Result<PathBuf> {
    let dir = root.join(sub);
    match fs::symlink_metadata(&dir) {
        Ok(m) if m.is_dir() => Ok(dir),
        Ok(m) if m.file_type().is_symlink() => Err(symlink_error(&dir)),
        Ok(_) => Err(anyhow!("cannot write into {}: not a folder", dir.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => match fs::create_dir(&dir) {
            Ok(()) => Ok(dir),
            // Another process made it in between: check it again.
            Err(e) if e.kind() == ErrorKind::AlreadyExists => make_sub_dir(root, sub),
            Err(e) => Err(anyhow!("cannot create {}: {e}", dir.display())),
        },
        Err(e) => Err(anyhow!("cannot read {}: {e}", dir.display())),
    }
}

/// Whether `dir` is a real folder (`false` when missing); an error when it is a symbolic link
/// or something else.
pub fn is_real_dir(dir: &Path) -> Result<bool> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => Ok(true),
        Ok(m) if m.file_type().is_symlink() => Err(symlink_error(dir)),
        Ok(_) => Err(anyhow!("{} is not a folder", dir.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(anyhow!("cannot read {}: {e}", dir.display())),
    }
}

/// The names of the regular files of `dir` (no symbolic links, no folders); none when `dir`
/// does not exist. `dir` must not be a symbolic link.
pub fn regular_files(dir: &Path) -> Result<Vec<String>> {
    if !is_real_dir(dir)? {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| anyhow!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| anyhow!("cannot read {}: {e}", dir.display()))?;
        // `file_type` does not follow links: a link to a file is not a regular file.
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            if let Some(name) = entry.file_name().to_str() {
                found.push(name.to_string());
            }
        }
    }
    Ok(found)
}

/// Removes the regular file `path` (a symbolic link or a folder there is left alone).
pub fn remove_regular_file(path: &Path) -> Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => {
            fs::remove_file(path).map_err(|e| anyhow!("cannot remove {}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

fn symlink_error(dir: &Path) -> anyhow::Error {
    anyhow!(
        "{} is a symbolic link: hdp writes into no folder through one (remove it or choose \
         another output folder)",
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hdp-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_name_is_replaced_not_followed() {
        let dir = scratch("link");
        let outside = dir.join("outside.txt");
        fs::write(&outside, "keep").unwrap();
        let inside = make_sub_dir(&dir, "out").unwrap();
        std::os::unix::fs::symlink(&outside, inside.join("index.html")).unwrap();
        write_file(&inside.join("index.html"), b"new").unwrap();
        assert_eq!(fs::read_to_string(&outside).unwrap(), "keep");
        assert_eq!(
            fs::read_to_string(inside.join("index.html")).unwrap(),
            "new"
        );
        assert!(!fs::symlink_metadata(inside.join("index.html"))
            .unwrap()
            .file_type()
            .is_symlink());
        // Only the file itself is left: no temporary file.
        assert_eq!(regular_files(&inside).unwrap(), ["index.html"]);
        // A linked folder is refused, and neither listed nor cleaned.
        std::os::unix::fs::symlink(&dir, inside.join("steps")).unwrap();
        assert!(make_sub_dir(&inside, "steps").is_err());
        assert!(regular_files(&inside.join("steps")).is_err());
        remove_regular_file(&inside.join("steps")).unwrap();
        assert!(outside.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        let dir = scratch("fail");
        // A folder at the name: the rename fails, the temporary file goes.
        fs::create_dir(dir.join("taken")).unwrap();
        assert!(write_file(&dir.join("taken"), b"x").is_err());
        assert!(regular_files(&dir).unwrap().is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }
}
