use super::*;

fn graph_of(edges: &[(&str, &str)]) -> Graph {
    let mut g = Graph::default();
    for (a, b) in edges {
        g.entry(a.to_string())
            .or_default()
            .insert(b.to_string(), "f.rs:1".into());
        g.entry(b.to_string()).or_default();
    }
    g
}

#[test]
fn references_read_paths_groups_and_skip_comments_and_tests() {
    let text = "use crate::a::X;\n// crate::b\nuse crate::{c, d::e};\nlet x = crate::Item;\nother_crate::f();\n#[cfg(test)]\nuse crate::g;\n";
    let names: Vec<String> = references(text).into_iter().map(|(_, m)| m).collect();
    assert_eq!(names, ["a", "c", "d", "crate"]);
}

#[test]
fn circles_are_found_once_and_the_root_is_left_out() {
    let g = graph_of(&[
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("a", "crate"),
        ("crate", "a"),
    ]);
    assert_eq!(cycles(&g), [vec!["a", "b", "c", "a"]]);
    assert!(cycles(&graph_of(&[("a", "b"), ("b", "c")])).is_empty());
}

#[test]
fn imports_up_a_layer_and_unplaced_modules_are_named() {
    let layers: &[(&str, &[&str])] = &[("low", &["a"]), ("high", &["b"])];
    assert!(layer_problems(&graph_of(&[("b", "a")]), layers).is_empty());
    let up = layer_problems(&graph_of(&[("a", "b")]), layers);
    assert_eq!(up.len(), 1);
    assert!(up[0].contains("a layer above"), "{up:?}");
    let unplaced = layer_problems(&graph_of(&[("z", "a")]), layers);
    assert!(unplaced[0].contains("in no layer"), "{unplaced:?}");
}

#[test]
fn module_of_maps_files_to_top_modules() {
    assert_eq!(
        module_of(Path::new("deep/select.rs")).as_deref(),
        Some("deep")
    );
    assert_eq!(module_of(Path::new("lib.rs")).as_deref(), Some("crate"));
    assert_eq!(module_of(Path::new("deep/tests.rs")), None);
    assert_eq!(module_of(Path::new("bin/x.rs")), None);
}
