//! The circles of a file graph: its strongly connected components of more than one file (every
//! file of one reaches every other through the arrows), each with the arrows that close it.

use std::collections::{BTreeMap, BTreeSet};

use super::scan::Graph;

/// The circles of `g`, each as its sorted files.
pub fn circles(g: &Graph) -> BTreeSet<Vec<String>> {
    let nodes: BTreeSet<&String> = g.keys().chain(g.values().flat_map(|t| t.keys())).collect();
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(n) = stack.pop() {
            for next in g.get(&n).into_iter().flat_map(|t| t.keys()) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut out = BTreeSet::new();
    for n in &nodes {
        let component: Vec<String> = reaches[n]
            .iter()
            .filter(|m| reaches[m].contains(*n))
            .cloned()
            .collect();
        if component.len() > 1 {
            out.insert(component);
        }
    }
    out
}

/// The arrows inside a circle, one per line: `a.rs:12,40 -> b.rs`.
pub fn describe(g: &Graph, circle: &[String]) -> String {
    let mut lines = Vec::new();
    for from in circle {
        for (to, at) in g.get(from).into_iter().flatten() {
            if circle.contains(to) {
                let at: Vec<String> = at.iter().map(usize::to_string).collect();
                lines.push(format!("    {from}:{} -> {to}", at.join(",")));
            }
        }
    }
    lines.join("\n")
}
