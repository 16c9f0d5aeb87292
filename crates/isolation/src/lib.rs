//! What isolates a sandboxed child, as data: the layers ([`Layer`]), the set in force
//! ([`Isolation`]) and what a caller asks for ([`IsolationChoice`]).
//!
//! crib-sandbox enforces the layers and re-exports these types; crib-results records the
//! layers in force in every result. Nothing here makes a system call, so that reading a
//! result never links the sandbox.
//!
//! # Example
//! ```
//! use crib_isolation::{Isolation, Layer};
//! let isolation: Isolation = serde_json::from_str(r#"["seccomp", "landlock-v6"]"#)?;
//! assert_eq!(isolation.layers(), [Layer::Seccomp, Layer::Landlock(6)]);
//! assert_eq!(isolation.name(), "seccomp+landlock-v6");
//! # Ok::<(), serde_json::Error>(())
//! ```

#![deny(missing_docs)]

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use serde::{Deserialize, Serialize};

/// One layer of isolation around every child, besides the rlimits that are always there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layer {
    /// bubblewrap: new user, pid, network, ipc, uts and mount namespaces; the only files
    /// visible are /usr (read-only), the grader's child program and tests (read-only), the
    /// submission's copy (read-only) and two small tmpfs (/scratch, the working directory,
    /// and /tmp). No network, all capabilities dropped.
    Bwrap,
    /// A seccomp filter: no socket but AF_UNIX (so no network), no ptrace or
    /// process_vm_readv, no io_uring, no new namespaces or mounts.
    Seccomp,
    /// Landlock with this ABI: read only SWI-Prolog's installation, the grader's child
    /// program and the submission; write only the scratch directory; no TCP bind or connect
    /// (ABI 4 and later); no signals out of the child's domain (ABI 6 and later). Under
    /// bubblewrap, applied inside the sandbox by a confiner (crib-sandbox's
    /// `Jail::confine_with`).
    Landlock(u8),
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Layer::Bwrap => f.write_str("bwrap"),
            Layer::Seccomp => f.write_str("seccomp"),
            Layer::Landlock(abi) => write!(f, "landlock-v{abi}"),
        }
    }
}

/// A name that is not a [`Layer`]'s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown isolation layer {name:?}")]
pub struct LayerError {
    /// The name given.
    pub name: String,
}

impl std::str::FromStr for Layer {
    type Err = LayerError;

    /// Parses a layer's name as [`Layer`]'s `Display` writes it (`bwrap`, `seccomp`,
    /// `landlock-v4`).
    ///
    /// # Errors
    /// [`LayerError`] quoting `s` when it is none of them.
    fn from_str(s: &str) -> Result<Layer, LayerError> {
        match s {
            "bwrap" => Ok(Layer::Bwrap),
            "seccomp" => Ok(Layer::Seccomp),
            _ => s
                .strip_prefix("landlock-v")
                .and_then(|v| v.parse().ok())
                .map(Layer::Landlock)
                .ok_or_else(|| LayerError {
                    name: s.to_string(),
                }),
        }
    }
}

impl Serialize for Layer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Layer {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Layer, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// The layers of isolation in force around every child (the rlimits are always there). In
/// JSON, the list of the layers' names, e.g. `["bwrap", "seccomp", "landlock-v6"]` or
/// `["seccomp", "landlock-v6"]`; `[]` means rlimits only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Isolation {
    /// bubblewrap's namespaces ([`Layer::Bwrap`]).
    pub bwrap: bool,
    /// The seccomp filter ([`Layer::Seccomp`]).
    pub seccomp: bool,
    /// Landlock, with the ABI enforced ([`Layer::Landlock`]).
    pub landlock: Option<u8>,
}

impl Isolation {
    /// Returns the program's own exit status from the status of the process the grader
    /// started, the same in every mode: bubblewrap exits with 128 + N when the program is
    /// killed by signal N, so under it such a code is read as that signal (a program that
    /// exits with a status above 128 of its own accord is then read as killed; no signal
    /// is above 64).
    pub fn program_status(&self, status: ExitStatus) -> ExitStatus {
        match status.code() {
            Some(code) if self.bwrap && (129..=128 + 64).contains(&code) => {
                ExitStatus::from_raw(code - 128)
            }
            _ => status,
        }
    }

    /// Returns the layers in force, in the order bwrap, seccomp, Landlock.
    pub fn layers(&self) -> Vec<Layer> {
        let mut layers = Vec::new();
        if self.bwrap {
            layers.push(Layer::Bwrap);
        }
        if self.seccomp {
            layers.push(Layer::Seccomp);
        }
        layers.extend(self.landlock.map(Layer::Landlock));
        layers
    }

    /// Returns the isolation with exactly `layers`.
    pub fn from_layers(layers: &[Layer]) -> Isolation {
        let mut isolation = Isolation::default();
        for layer in layers {
            match *layer {
                Layer::Bwrap => isolation.bwrap = true,
                Layer::Seccomp => isolation.seccomp = true,
                Layer::Landlock(abi) => isolation.landlock = Some(abi),
            }
        }
        isolation
    }

    /// Returns whether children are cut off from the network: bubblewrap's network
    /// namespace, or the seccomp filter's ban on every socket but AF_UNIX.
    pub fn network(&self) -> bool {
        self.bwrap || self.seccomp
    }

    /// Returns whether children are kept to their own files: bubblewrap's mount namespace,
    /// or Landlock.
    pub fn files(&self) -> bool {
        self.bwrap || self.landlock.is_some()
    }

    /// Returns the name used in summaries: the layers joined by `+`
    /// (`bwrap+seccomp`, `seccomp+landlock-v6`), or `rlimits only`.
    pub fn name(&self) -> String {
        let layers = self.layers();
        if layers.is_empty() {
            return "rlimits only".into();
        }
        layers
            .iter()
            .map(Layer::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }

    /// Returns one warning per layer missing, saying what submissions can then do.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.bwrap {
            out.push("bubblewrap is not in force (no namespaces here)".to_string());
        }
        if !self.seccomp {
            out.push(if self.bwrap {
                "no seccomp filter (the network namespace still cuts the network)".into()
            } else if self.landlock.is_some_and(|abi| abi >= 4) {
                "no seccomp filter: Landlock still denies TCP, but UDP and raw sockets are open"
                    .into()
            } else {
                "no seccomp filter: submissions can reach the network".into()
            });
        }
        if !self.bwrap {
            match self.landlock {
                None => out.push(
                    "no Landlock: submissions can read and write whatever their uid can".into(),
                ),
                Some(abi) if abi < 6 => out.push(format!(
                    "Landlock ABI {abi} < 6: signals are not scoped (an unprivileged uid, when \
                     the grader runs as root, still keeps them from the grader)"
                )),
                Some(_) => {}
            }
        }
        out
    }
}

impl Serialize for Isolation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.layers().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Isolation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Isolation, D::Error> {
        Ok(Isolation::from_layers(&Vec::<Layer>::deserialize(d)?))
    }
}

/// Which isolation to ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum IsolationChoice {
    /// bubblewrap if it works here, else no namespaces; seccomp and Landlock wherever the
    /// kernel offers them (the reports say which layers were in force).
    Auto,
    /// bubblewrap (plus seccomp), or an error if it does not work here.
    Bwrap,
    /// No namespaces: rlimits, plus seccomp and Landlock wherever the kernel offers them.
    Rlimits,
    /// As `Auto`, but an error unless children are cut off from both the network (bwrap or
    /// seccomp) and the host's files (bwrap or Landlock).
    Strict,
}

#[cfg(test)]
mod tests;
