//! `gpu::private_runtime_dir`: a test binary of its own, since it changes the process
//! environment (no other test thread may read it meanwhile).

use std::ffi::OsString;

use gpu::{private_runtime_dir, RUNTIME_DIR_ENV};

#[test]
fn a_private_runtime_folder_only_when_none_is_set() {
    let before: Option<OsString> = std::env::var_os(RUNTIME_DIR_ENV);
    std::env::remove_var(RUNTIME_DIR_ENV);

    let dir = private_runtime_dir().unwrap().expect("a folder when XDG_RUNTIME_DIR is unset");
    let path = dir.path().to_path_buf();
    assert!(path.is_dir(), "{}", path.display());
    assert_eq!(std::env::var_os(RUNTIME_DIR_ENV), Some(path.clone().into_os_string()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o700);
    }
    // Set now: a second call leaves it alone.
    assert!(private_runtime_dir().unwrap().is_none());
    drop(dir);
    assert!(!path.exists(), "removed on drop");
    assert_eq!(std::env::var_os(RUNTIME_DIR_ENV), None, "unset again on drop");

    // An empty value counts as unset.
    std::env::set_var(RUNTIME_DIR_ENV, "");
    let dir = private_runtime_dir().unwrap().expect("a folder when XDG_RUNTIME_DIR is empty");
    drop(dir);

    // A value of the caller's is kept.
    std::env::set_var(RUNTIME_DIR_ENV, "/somewhere/else");
    assert!(private_runtime_dir().unwrap().is_none());
    assert_eq!(std::env::var_os(RUNTIME_DIR_ENV), Some("/somewhere/else".into()));

    match before {
        Some(v) => std::env::set_var(RUNTIME_DIR_ENV, v),
        None => std::env::remove_var(RUNTIME_DIR_ENV),
    }
}
