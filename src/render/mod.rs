//! Pictures and reports: decision trees and grids as SVG (the `svg` crate), illustrated steps,
//! and HTML reports from the templates in `templates/` (askama). Renderers read analysis results
//! and trees; they never run the engine, and they return strings (no I/O).

pub mod grid;
mod moves;
pub mod report;
pub mod steps;
pub mod tree;

pub use grid::{contradiction_marks, derivation_svg, grid_svg, GridStyle};
pub use report::{
    index_html, index_order, is_report_file, report, with_nav, IndexEntry, Link, Nav, RenderError,
    Report,
};
pub use steps::{explained_pictures, steps_svgs};
pub use tree::{
    layout, layout_view, tree_svg, tree_svg_view, Expand, Layout, NodeBox, Panel, RowLabel,
    TreeStyle, TreeView,
};

/// Colour of each node class: (class, fill, stroke). One code everywhere, with a legend.
pub(crate) const COLOURS: &[(&str, &str, &str)] = &[
    ("ctr", "#f8d7da", "#b02a37"),
    ("sol", "#d1e7dd", "#146c43"),
    ("open", "#dbeafe", "#1d4ed8"),
    ("decision", "#eeeeee", "#6b7280"),
    ("fact", "#fff3cd", "#b7791f"),
    ("root", "#ffffff", "#111827"),
];

/// The (fill, stroke) of a colour class of [`COLOURS`] (white and dark grey for an unknown one).
pub(crate) fn colours(class: &str) -> (&'static str, &'static str) {
    COLOURS
        .iter()
        .find(|(c, _, _)| *c == class)
        .map_or(("#ffffff", "#333333"), |(_, f, s)| (*f, *s))
}

/// Width of `text` in the 12 px monospace font of the pictures.
pub(crate) fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 7.3
}

/// An SVG document of the given size, with a matching `viewBox` so it scales cleanly.
pub(crate) fn svg_document(width: f64, height: f64) -> svg::Document {
    let (w, h) = (width.ceil(), height.ceil());
    svg::Document::new()
        .set("viewBox", (0, 0, w, h))
        .set("width", w)
        .set("height", h)
        .add(
            svg::node::element::Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", "#ffffff"),
        )
}
