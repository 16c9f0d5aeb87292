//! `cargo xtask layers`: the import graph of each crate's modules, checked.
//!
//! A module is a file directly in `src/` (or its directory of submodules): `src/deep.rs`
//! and `src/deep/select.rs` are both `deep`. A module imports another when its code (not its
//! comments, not its tests) names `crate::other`. Every crate's graph must have no circle;
//! crib-grade's modules must also sit in the layers of [`GRADE_LAYERS`], each importing only
//! from its own layer or those below. `crate::Item` (an item of the crate root) is refused in
//! crib-grade: name the module that defines it, so the graph shows the real edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// crib-grade's layers, bottom first: a module may import from its own layer and below.
pub const GRADE_LAYERS: &[(&str, &[&str])] = &[
    (
        "data: the wire protocol, verdicts (results are crib-results', the test set crib-testset's)",
        &[
            "pool",
            "error",
            "protocol",
            "verdict",
            "limits",
            "results",
            "swipl",
            "keep_diagnosis",
        ],
    ),
    ("children", &["child"]),
    (
        "batches of hand_value and select_hand calls: the marked check, the deep check",
        &["batch", "deep", "marked_check"],
    ),
    ("the runner", &["runner"]),
    ("output formats", &["table"]),
    ("the session", &["session"]),
];

/// One crate's modules and whom each imports: module -> the modules it names, with one place
/// each does so (`file:line`).
pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Checks every crate under `crates/`; prints each crate's graph; fails naming each circle
/// and each import that goes up a layer.
pub fn run(root: &Path) -> Result<()> {
    let mut problems = Vec::new();
    let crates = crate::sorted_entries(&root.join("crates"))?;
    for dir in crates.into_iter().filter(|p| p.join("src").is_dir()) {
        let name = dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let graph = graph(&dir.join("src"))?;
        for cycle in cycles(&graph) {
            problems.push(format!("crates/{name}: a circle: {}", cycle.join(" -> ")));
        }
        if name == "grade" {
            problems.extend(layer_problems(&graph, GRADE_LAYERS));
            println!("crates/grade, layers bottom first:");
            for (layer, modules) in GRADE_LAYERS {
                println!("  {layer}: {}", modules.join(", "));
            }
        }
        let edges: usize = graph.values().map(BTreeMap::len).sum();
        println!(
            "crates/{name}: {} modules, {edges} imports between them",
            graph.len()
        );
    }
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("xtask: {p}");
        }
        bail!("{} problem(s) in the module graph", problems.len());
    }
    println!("xtask: no circle in any crate; crib-grade imports only downwards");
    Ok(())
}

/// Returns the module graph of the crate whose sources are in `src`.
pub fn graph(src: &Path) -> Result<Graph> {
    let mut graph = Graph::default();
    let mut files = Vec::new();
    collect(src, &mut files)?;
    files.sort();
    for file in files {
        let rel = file.strip_prefix(src).unwrap_or(&file);
        let Some(module) = module_of(rel) else {
            continue;
        };
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let entry = graph.entry(module.clone()).or_default();
        for (line, target) in references(&text) {
            if target != module {
                entry
                    .entry(target)
                    .or_insert_with(|| format!("{}:{line}", file.display()));
            }
        }
    }
    Ok(graph)
}

/// Returns the top module a file belongs to (`deep/select.rs` -> `deep`), `None` for tests
/// (`tests.rs`, `tests/`) and binaries (`bin/`); the root (`lib.rs`, `main.rs`) is `crate`.
fn module_of(rel: &Path) -> Option<String> {
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.last()?;
    if last == "tests.rs" || parts.iter().any(|p| p == "tests" || p == "bin") {
        return None;
    }
    let first = parts.first()?.trim_end_matches(".rs").to_string();
    Some(match first.as_str() {
        "lib" | "main" => "crate".into(),
        _ => first,
    })
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for path in crate::sorted_entries(dir)? {
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// Returns each module named as `crate::name` in `text`, with its line (1-based), leaving
/// out comments and everything from the first `#[cfg(test)]` on. `crate::{a, b::c}` names
/// `a` and `b`; `crate::Item` (capitalised: an item of the root) names `crate`.
pub fn references(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            break;
        }
        if code.starts_with("//") {
            continue;
        }
        let code = code.split(" //").next().unwrap_or(code);
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue; // e.g. `some_crate::x`
            }
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    if let Some(name) = ident(item.trim()) {
                        out.push((i + 1, target(&name)));
                    }
                }
            } else if let Some(name) = ident(rest) {
                out.push((i + 1, target(&name)));
            }
        }
    }
    out
}

fn ident(text: &str) -> Option<String> {
    let name: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

fn target(name: &str) -> String {
    if name.starts_with(|c: char| c.is_uppercase()) {
        "crate".into()
    } else {
        name.into()
    }
}

/// Returns each circle of modules (the root, which re-exports, is left out), each once.
pub fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    let mut found: BTreeSet<Vec<String>> = BTreeSet::new();
    for start in graph.keys().filter(|m| *m != "crate") {
        // Depth-first from `start`, looking for a path back to it.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in graph.get(&node).into_iter().flat_map(|e| e.keys()) {
                if next == "crate" {
                    continue;
                }
                if next == start {
                    let mut cycle = path.clone();
                    // Rotate so the smallest name comes first: each circle is listed once.
                    let min = (0..cycle.len()).min_by_key(|&i| &cycle[i]).unwrap_or(0);
                    cycle.rotate_left(min);
                    let first = cycle[0].clone();
                    cycle.push(first);
                    found.insert(cycle);
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    found.into_iter().collect()
}

/// Returns each import that goes up a layer, each module missing from `layers`, and each
/// use of the root.
pub fn layer_problems(graph: &Graph, layers: &[(&str, &[&str])]) -> Vec<String> {
    let level: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, (_, modules))| modules.iter().map(move |m| (*m, i)))
        .collect();
    let mut problems = Vec::new();
    for (module, targets) in graph {
        if module == "crate" {
            continue;
        }
        let Some(&from) = level.get(module.as_str()) else {
            problems.push(format!(
                "module `{module}` is in no layer: add it to GRADE_LAYERS in xtask/src/layers.rs"
            ));
            continue;
        };
        for (to, place) in targets {
            match level.get(to.as_str()) {
                _ if to == "crate" => problems.push(format!(
                    "{place}: `{module}` names an item of the crate root; name its module"
                )),
                Some(&up) if up > from => problems.push(format!(
                    "{place}: `{module}` ({}) imports `{to}` ({}), a layer above it",
                    layers[from].0, layers[up].0
                )),
                _ => {}
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests;
