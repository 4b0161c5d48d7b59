//! The search filter (`SearchFilter`: status, minimum rating, agent, scopes) as SQL over `experiences e`,
//! written once for every query that applies it (full-text and vector candidates). The SQLite
//! store's `filter.rs` applies the same filter to its in-memory indexes and its FTS5 fallback.

use knowhub_core::SearchFilter;

use crate::db::PgQuery;

/// Number of parameters [`sql`] takes.
pub(crate) const PARAMS: usize = 4;

/// The filter as SQL: parameters `${first}` status, `${first + 1}` minimum rating, `${first + 2}`
/// agent id or NULL, `${first + 3}` the scopes or NULL, bound in that order by [`bind`].
pub(crate) fn sql(first: usize) -> String {
    written(first, false)
}

/// [`sql`] with the scopes written so that no index serves them: checked on each row another
/// index found (`IS TRUE` is not an indexable condition), with the same parameters.
pub(crate) fn sql_by_row(first: usize) -> String {
    written(first, true)
}

fn written(first: usize, scopes_by_row: bool) -> String {
    let (status, score, agent, scopes) = (first, first + 1, first + 2, first + 3);
    let in_scopes = format!("(${scopes}::text[] IS NULL OR e.scope = ANY(${scopes}::text[]))");
    let in_scopes = if scopes_by_row { format!("({in_scopes} IS TRUE)") } else { in_scopes };
    format!(
        "e.held = 0 AND e.status = ${status} AND e.score >= ${score} AND (${agent}::text IS NULL OR e.agent_id = ${agent}) \
         AND {in_scopes}"
    )
}

/// The number of [`sql`]'s scopes parameter, for a query that also filters vectors' own scope.
pub(crate) fn scopes_param(first: usize) -> usize {
    first + 3
}

/// Binds [`sql`]'s parameters; the query's parameters before them must be bound already.
pub(crate) fn bind<'q>(q: PgQuery<'q>, f: &'q SearchFilter) -> PgQuery<'q> {
    q.bind(f.status.as_str()).bind(f.min_score as i16).bind(&f.agent_id).bind(&f.scopes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_the_parameters_from_first() {
        assert_eq!(
            super::sql(3),
            "e.held = 0 AND e.status = $3 AND e.score >= $4 AND ($5::text IS NULL OR e.agent_id = $5) \
             AND ($6::text[] IS NULL OR e.scope = ANY($6::text[]))"
        );
        assert!(super::sql_by_row(3).ends_with("AND (($6::text[] IS NULL OR e.scope = ANY($6::text[])) IS TRUE)"));
    }
}
