//! The view pipeline: the value views are built from, the viewer sets that mark hidden parts,
//! the envelope around a ruleset's view, the diff between two views and the change diffed
//! once for every audience.

pub mod changes;
pub mod diff;
pub mod envelope;
pub mod value;
pub mod viewers;

pub use changes::Changes;
pub use diff::{diff, diff_json};
pub use envelope::build_all as envelope_view_all;
pub use value::{Key, ViewValue};
pub use viewers::Viewers;
