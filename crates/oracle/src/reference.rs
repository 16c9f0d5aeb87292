//! Loading a Prolog implementation into the process's SWI-Prolog.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use swipl::engine::Engine;

use crate::fli::{Active, Names, Status};
use crate::{Oracle, OracleError};

/// The text of prolog/oracle.pl, the questions the oracle asks, built into the crate.
const ORACLE_PL: &str = include_str!("../../../prolog/oracle.pl");

/// What every load attempt in this process ends with. SWI-Prolog has one database per process,
/// so the first file loaded is the only one.
static LOADED: Mutex<Option<(PathBuf, Result<Reference, OracleError>)>> = Mutex::new(None);

/// A Prolog implementation loaded into this process: the file, and the names the oracle calls
/// it with. Cheap to clone; hand one to each thread and make an [`Oracle`] there.
#[derive(Clone)]
pub struct Reference {
    pub(crate) shared: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) path: PathBuf,
    pub(crate) names: Names,
}

impl std::fmt::Debug for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reference")
            .field("path", &self.shared.path)
            .finish_non_exhaustive()
    }
}

/// Returns the path of the reference implementation in this source tree,
/// `prolog/cribbage.pl` at the workspace root.
pub fn default_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prolog/cribbage.pl")
}

impl Reference {
    /// Loads the Prolog file at `path` into module `user` of this process's SWI-Prolog
    /// (initialising SWI-Prolog on first use), after the oracle's own questions
    /// (prolog/oracle.pl, built into the crate).
    ///
    /// The file must define, or import from its module, `hand_value/3` and `select_hand/3`;
    /// `hand_value/4` (rule first) answers the crib rule, and `hand_values_codes/4`, when
    /// present, answers the batched calls. The file is trusted: it runs in this process, and a
    /// `halt/0` in it ends the process.
    ///
    /// Loading the same file again returns the same reference (or the same error).
    ///
    /// # Errors
    /// - [`OracleError::Load`] if the file does not exist or prints an error while loading;
    /// - [`OracleError::Missing`] if `hand_value/3` or `select_hand/3` is not defined;
    /// - [`OracleError::AlreadyLoaded`] if this process loaded another file before.
    ///
    /// # Example
    /// ```
    /// use crib_oracle::Reference;
    /// let reference = Reference::load(crib_oracle::default_path())?;
    /// assert!(reference.path().ends_with("cribbage.pl"));
    /// assert!(Reference::load("no/such/file.pl").is_err());
    /// # Ok::<(), crib_oracle::OracleError>(())
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Reference, OracleError> {
        let given = path.as_ref();
        let path = given.canonicalize().map_err(|err| OracleError::Load {
            path: given.to_path_buf(),
            message: err.to_string(),
        })?;
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((first, result)) = &*loaded {
            return if *first == path {
                result.clone()
            } else {
                Err(OracleError::AlreadyLoaded {
                    loaded: first.clone(),
                    requested: path,
                })
            };
        }
        let result = load_into_prolog(&path);
        *loaded = Some((path, result.clone()));
        result
    }

    /// Returns the canonical path of the loaded file.
    pub fn path(&self) -> &Path {
        &self.shared.path
    }

    /// Returns a new oracle: a Prolog engine of its own over this reference, for one thread
    /// at a time.
    pub fn oracle(&self) -> Oracle {
        Oracle::new(self.clone())
    }
}

fn load_into_prolog(path: &Path) -> Result<Reference, OracleError> {
    // The first engine initialises SWI-Prolog, which handles SIGINT for its debugger; a
    // program embedding it should stop on Ctrl-C.
    let engine = Engine::new();
    // SAFETY: setting a signal's disposition to SIG_DFL installs no Rust code as a handler.
    unsafe { libc::signal(libc::SIGINT, libc::SIG_DFL) };
    if Engine::some_engine_active() {
        return Err(OracleError::EngineBusy);
    }
    let _activation = engine.activate();
    // SAFETY: `engine` stays active until `_activation` drops, after `cx`.
    let cx = unsafe { Active::new() };
    let names = Names::new(&cx);
    load_oracle_pl(&cx, &names)?;
    let errors = call_load_reference(&cx, &names, path)?;
    if !errors.is_empty() {
        return Err(OracleError::Load {
            path: path.to_path_buf(),
            message: errors.join("\n"),
        });
    }
    let missing = missing_predicates(&cx, &names, &["hand_value/3", "select_hand/3"])?;
    if !missing.is_empty() {
        return Err(OracleError::Missing {
            path: path.to_path_buf(),
            predicates: missing,
        });
    }
    Ok(Reference {
        shared: Arc::new(Shared {
            path: path.to_path_buf(),
            names,
        }),
    })
}

/// Loads [`ORACLE_PL`] from a string stream.
fn load_oracle_pl(cx: &Active, names: &Names) -> Result<(), OracleError> {
    let failed = |message: String| OracleError::Load {
        path: PathBuf::from("prolog/oracle.pl (built into crib-oracle)"),
        message,
    };
    let open = cx.terms(2);
    cx.put_string(open, ORACLE_PL);
    expect_true(cx.call(names.open_string, open)).map_err(failed)?;
    let load = cx.terms(2);
    cx.put_atom_text(load, "crib_oracle/oracle.pl");
    names.put_stream_option(cx, load + 1, open + 1);
    let loaded = expect_true(cx.call(names.load_files, load));
    let closed = expect_true(cx.call(names.close, open + 1));
    loaded.and(closed).map_err(failed)
}

/// Calls `oracle:load_reference(Path, Errors)` and returns the error messages.
fn call_load_reference(
    cx: &Active,
    names: &Names,
    path: &Path,
) -> Result<Vec<String>, OracleError> {
    let args = cx.terms(2);
    cx.put_atom_text(args, &path.to_string_lossy());
    expect_true(cx.call(names.load_reference, args)).map_err(|message| OracleError::Load {
        path: path.to_path_buf(),
        message,
    })?;
    Ok(cx.list(args + 1, |t| Some(cx.text(t))).unwrap_or_default())
}

/// Returns those of `wanted` (`name/arity`) that module user cannot call.
fn missing_predicates(
    cx: &Active,
    names: &Names,
    wanted: &[&str],
) -> Result<Vec<String>, OracleError> {
    let list = format!("[{}]", wanted.join(", "));
    let goal = format!("oracle:missing_predicates({list}, Missing)");
    let args = cx.terms(2);
    if !cx.put_parsed(args, &list) {
        let message = "cannot read the list".to_string();
        return Err(OracleError::Raised { goal, message });
    }
    expect_true(cx.call(names.missing_predicates, args))
        .map_err(|message| OracleError::Raised { goal, message })?;
    Ok(cx.list(args + 1, |t| Some(cx.text(t))).unwrap_or_default())
}

fn expect_true(status: Status) -> Result<(), String> {
    match status {
        Status::True => Ok(()),
        Status::False => Err("the goal failed".into()),
        Status::Raised(message) => Err(message),
    }
}
