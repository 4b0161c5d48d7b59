//! The review queue's decisions.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::model::Outcome;
use crate::validate;

/// Fields a reviewer may correct while approving. Absent fields stay as extracted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Edits {
    pub task: Option<String>,
    pub resource: Option<String>,
    pub result: Option<String>,
    pub score: Option<i64>,
    pub outcome: Option<String>,
}

/// Validated corrections, ready for a store.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidEdits {
    pub task: Option<String>,
    pub resource: Option<String>,
    pub result: Option<String>,
    pub score: Option<u8>,
    pub outcome: Option<Outcome>,
}

impl ValidEdits {
    pub fn is_empty(&self) -> bool {
        *self == ValidEdits::default()
    }
}

impl Edits {
    /// Same limits as a submit, each error naming its field.
    pub fn validate(self) -> Result<ValidEdits> {
        // Present fields follow a submit's rules for required text; absent ones stay as they are.
        let text =
            |field: &str, v: Option<String>, max: usize| v.map(|s| validate::required(field, Some(s), max)).transpose();
        Ok(ValidEdits {
            task: text("task", self.task, validate::MAX_TASK)?,
            resource: text("resource", self.resource, validate::MAX_RESOURCE)?,
            result: text("result", self.result, validate::MAX_RESULT)?,
            score: match self.score {
                None => None,
                s => Some(validate::score(s)?),
            },
            outcome: match self.outcome {
                None => None,
                Some(o) => Some(validate::outcome(Some(&o))?),
            },
        })
    }
}

/// What a reviewer decided about a pending record.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    Approve(ValidEdits),
    Reject {
        reason: Option<String>,
    },
    /// Edits to an approved record (a reviewer reverting an earlier edit); it stays approved.
    Revise(ValidEdits),
}

/// A decision with who made it.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    pub decision: Decision,
    pub reviewer: String,
}
