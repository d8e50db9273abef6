//! The view pipeline, in one place: the value views are built from ([`ViewValue`]), how a
//! ruleset's typed view becomes one ([`to_view`], with [`Only`] marking what only some
//! viewers see), the viewer sets those marks hold ([`Viewers`]), the envelope around a
//! ruleset's view ([`envelope`]), the diff between two views ([`diff`]) and one change diffed
//! once for every audience ([`Changes`]).

mod builders;
pub mod changes;
pub mod diff;
pub mod envelope;
mod only;
mod serialize;
pub mod value;
pub mod viewers;

pub use changes::Changes;
pub use diff::{diff, diff_json};
pub use envelope::build_all as envelope_view_all;
pub use only::Only;
pub use serialize::{literal, to_view, Literal, ViewError};
pub use value::{Key, Text, ViewValue};
pub use viewers::{Viewer, Viewers};
