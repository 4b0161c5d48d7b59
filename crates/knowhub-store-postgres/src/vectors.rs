//! Vectors: pgvector, column `vector` without a fixed dimension plus one partial HNSW index per
//! dimension in use (created on first use, see `ensure_vector_index`), so changing the embedding model
//! needs no migration. Candidates come from the index, or, for a filter that only a few records
//! pass, from an exact scan of those records (see `candidates`); block scores from `subvector`s.
//! A query whose last column blocks are zero (the local embedder's `[e5 ; 0]`) is searched in an
//! index of the vectors' head instead (see `Shape`).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::{try_join_all, BoxFuture, FutureExt};
use sha2::{Digest, Sha256};

use knowhub_core::{BlockScores, CoreError, Result, SearchFilter, VECTOR_BLOCK};
use sqlx::{AssertSqlSafe, Connection, PgPool, Row};

use crate::db::{db_err, PgStore};
use crate::filter;
use crate::rows::scored;

/// HNSW's candidate list for a usual search (pgvector's default); see `candidates`.
pub(crate) const SESSION_EF_SEARCH: usize = 40;

/// HNSW on `vector` supports at most 2,000 dimensions; larger vectors are searched exactly.
const MAX_HNSW_DIM: usize = 2000;

/// Records (of the filter's scopes) up to which candidates come from an exact scan of the
/// scopes' vectors rather than from HNSW. The shared index filters after its scan, so for a
/// small scope its iterative scan walks on until enough neighbours pass (1,000 tuples or more for
/// a 3% scope, the whole `hnsw.max_scan_tuples` for a 1% one); a scope of this size or more has
/// an index of its own (`SCOPE_INDEX_FROM`). The exact scan costs a fixed amount per vector of
/// the scopes, read through their scope index without a join: at 100k records on the 2-core
/// machine, comparing the E5 head (`bench/sql/pg-index-costs.sh`), 0.7-1.2 ms for a scope of
/// 2,100 records and 2.4-3.6 ms for one of 4,500, where a search of the scope's own head index
/// took 0.2-0.5 ms.
pub(crate) const EXACT_MAX: u64 = 1000;

/// Records from which a scope gets its own partial HNSW index (see `Shape::index_sql`): where an
/// exact scan of it stops (`EXACT_MAX`). A search over several scopes would otherwise filter the
/// shared index after its scan. Searches in it tell the planner not to sort the scope's rows
/// instead (see `hnsw`).
pub(crate) const SCOPE_INDEX_FROM: u64 = EXACT_MAX;

/// The most scopes with an index of their own, the largest first: every statement on the
/// vectors is planned against each partial index, and every write to an indexed scope updates two
/// HNSW indexes. Smaller scopes are scanned exactly or searched through the shared index.
const MAX_SCOPE_INDEXES: usize = 64;

/// How `candidates` prices its plans, in the time HNSW spends on one candidate it visits
/// (measured at 100k records of 768 dimensions on a 2-core machine: an HNSW search costs about
/// 1 ms plus 0.03 ms per candidate, an exact scan about 1 ms plus 0.8 µs per vector): a
/// statement's fixed cost (planning, the join to the records, the round trip), and the vectors
/// an exact scan compares per candidate's worth of time.
const STATEMENT_COST: u64 = 36;
const EXACT_PER_CANDIDATE: u64 = 35;

/// An exact scan joins its nearest `EXACT_POOL * limit` vectors to their records for the filter
/// (see `exact`): room for the few records the filter drops (pending, held, below a rating).
const EXACT_POOL: usize = 2;

/// The largest HNSW candidate list a scoped search asks for (see `candidates`).
const SCOPED_EF_MAX: usize = 400;

/// The share of `scoped_ef`'s list that a scoped search through the shared index asks for, as
/// (numerator, denominator). `scoped_ef` sizes the list for about `ef` passing records; the
/// iterative scan goes on past a shorter list while fewer than `limit` pass, so the shorter list
/// costs fewer visits. The share is the shortest that keeps a scoped search's recall at the
/// unscoped one's: at 100k records in 50 scopes (`knowhub-bench scopes`, head index), a key
/// reading a third of the records keeps recall@40 0.891 against the unscoped 0.893 with two
/// thirds (three quarters: 0.902), and its whole search's p50 against the unscoped one's falls
/// from 1.23-1.36x to 1.21-1.26x in four paired runs. Plans are still priced at the whole list.
const SHARED_LIST_SHARE: (usize, usize) = (2, 3);

/// How long a dimension's shared index of one shape must go unscanned, while searches read the
/// other shape's, before it is dropped: long enough that a replica still reading it (its view of
/// the valid indexes is at most `SCOPE_COUNTS_TTL` old) or a burst of the rarer shape keeps it;
/// an index searched again is rebuilt in the background.
pub(crate) const RETIRE_UNUSED_AFTER: Duration = Duration::from_secs(3600);

/// How long the per-scope record counts are reused: they only choose a plan, so a minute's drift
/// costs at most a slower plan, never a wrong result.
const SCOPE_COUNTS_TTL: Duration = Duration::from_secs(60);

/// Candidates with their inner products, best first.
type Scored = Vec<(String, f64)>;

fn check_vector(v: &[f32]) -> Result<()> {
    if v.is_empty() || v.len() > 16_000 {
        return Err(CoreError::invalid("vector", format!("dimension {} not supported (1..16000)", v.len())));
    }
    Ok(())
}

pub(crate) use memo::{Indexes, KnownDims, ScopeCounts};

/// A tiny set behind a std mutex; avoids another dependency for one memo.
mod memo {
    use std::collections::{HashMap, HashSet};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    #[derive(Default)]
    pub struct KnownDims(Mutex<HashSet<usize>>);

    impl KnownDims {
        pub fn contains(&self, d: usize) -> bool {
            self.0.lock().map(|s| s.contains(&d)).unwrap_or(false)
        }
        pub fn insert(&self, d: usize) {
            if let Ok(mut s) = self.0.lock() {
                s.insert(d);
            }
        }
    }

    type Counts = Arc<HashMap<String, u64>>;

    /// The HNSW indexes of `vectors` known to be valid (by name), when that was last read from
    /// the catalog, and whether this process is building one now (one build at a time, in the
    /// background).
    #[derive(Default)]
    pub struct Indexes {
        valid: Mutex<(Option<Instant>, HashSet<String>)>,
        building: std::sync::atomic::AtomicBool,
        /// Indexes that may be dropped when idle: their scan count when first seen at it, and since when.
        idle: Mutex<HashMap<String, (i64, Instant)>>,
        /// Indexes a search found missing, and when its build was last asked for.
        missed: Mutex<HashMap<String, Instant>>,
    }

    impl Indexes {
        pub fn has(&self, name: &str) -> bool {
            self.valid.lock().map(|s| s.1.contains(name)).unwrap_or(false)
        }
        /// Whether the set was read from the catalog less than `ttl` ago.
        pub fn fresh(&self, ttl: Duration) -> bool {
            self.valid.lock().map(|s| s.0.is_some_and(|at| at.elapsed() < ttl)).unwrap_or(false)
        }
        pub fn set(&self, names: HashSet<String>) {
            *self.valid.lock().unwrap_or_else(|p| p.into_inner()) = (Some(Instant::now()), names);
        }
        pub fn add(&self, name: String) {
            self.valid.lock().unwrap_or_else(|p| p.into_inner()).1.insert(name);
        }
        pub fn remove(&self, name: &str) {
            self.valid.lock().unwrap_or_else(|p| p.into_inner()).1.remove(name);
        }
        /// The valid scope indexes of vectors of `dim`, of every shape.
        pub fn scope_indexes_of(&self, dim: usize) -> Vec<String> {
            let g = self.valid.lock().unwrap_or_else(|p| p.into_inner());
            g.1.iter().filter(|n| super::is_scope_index_name(n, dim)).cloned().collect()
        }
        /// The valid shared indexes of vectors of `dim`, of every shape.
        pub fn shared_indexes_of(&self, dim: usize) -> Vec<String> {
            let g = self.valid.lock().unwrap_or_else(|p| p.into_inner());
            g.1.iter().filter(|n| super::is_shared_index_name(n, dim)).cloned().collect()
        }
        /// Notes that `name` has been scanned `scans` times so far; returns how long that count
        /// has not moved (zero when it just did).
        pub fn idle_for(&self, name: &str, scans: i64) -> Duration {
            let mut g = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            match g.get(name) {
                Some((n, since)) if *n == scans => since.elapsed(),
                _ => {
                    g.insert(name.to_string(), (scans, Instant::now()));
                    Duration::ZERO
                }
            }
        }
        /// Whether a search finding `name` missing should ask for its build: not when that was
        /// asked for less than `ttl` ago.
        pub fn ask_build(&self, name: &str, ttl: Duration) -> bool {
            let mut g = self.missed.lock().unwrap_or_else(|p| p.into_inner());
            if g.get(name).is_some_and(|at| at.elapsed() < ttl) {
                return false;
            }
            g.insert(name.to_string(), Instant::now());
            true
        }
        /// Claims the one build slot; false when a build is running.
        pub fn start_build(&self) -> bool {
            !self.building.swap(true, std::sync::atomic::Ordering::AcqRel)
        }
        pub fn end_build(&self) {
            self.building.store(false, std::sync::atomic::Ordering::Release);
        }
    }

    /// Records per scope, as last counted, and when.
    #[derive(Default)]
    pub struct ScopeCounts(Mutex<Option<(Instant, Counts)>>);

    impl ScopeCounts {
        /// The counts if taken less than `ttl` ago.
        pub fn fresh(&self, ttl: Duration) -> Option<Counts> {
            let g = self.0.lock().unwrap_or_else(|p| p.into_inner());
            g.as_ref().filter(|(at, _)| at.elapsed() < ttl).map(|(_, c)| c.clone())
        }
        pub fn set(&self, counts: HashMap<String, u64>) -> Counts {
            let c = Arc::new(counts);
            *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), c.clone()));
            c
        }
    }
}

/// The partial HNSW index for vectors of one dimension, by inner product: vectors are unit
/// length (where inner product ranks as cosine) except the local embedder's composite ones,
/// whose E5 half must be scored unscaled (knowhub-ai `compose`). Replaces the cosine index of
/// earlier versions. Public so benchmarks can time exactly the index the store creates. The
/// dimension is a number rendered here: no injection.
pub fn hnsw_index_sql(dim: usize) -> String {
    format!("DROP INDEX IF EXISTS vectors_hnsw_{dim}; {}", Shape::whole(dim).index_sql(None, false))
}

/// Which part of the stored vectors of one dimension a query reads, and so which HNSW indexes
/// serve it: the whole vector, or its head, the leading column blocks (`VECTOR_BLOCK`) up to the
/// query's last non-zero one. The local embedder's scan query `[e5 ; 0]` ranks by the E5 block
/// alone, and a graph built on the whole composite vector is a graph for another distance: at
/// 100k records, with queries made from records' E5 blocks, HNSW over the head found 92% of the
/// exact 40 nearest against 85% over the whole vector (with real queries 89.4% against 88.7%),
/// in less time (half the dimensions per visit), from an index half the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    dim: usize,
    head: usize,
}

impl Shape {
    pub(crate) fn of(query: &[f32]) -> Shape {
        let dim = query.len();
        let used = query.iter().rposition(|x| *x != 0.0).map_or(1, |i| i + 1);
        let head = used.div_ceil(VECTOR_BLOCK) * VECTOR_BLOCK;
        if head < dim && head <= MAX_HNSW_DIM {
            Shape { dim, head }
        } else {
            Shape::whole(dim)
        }
    }

    fn whole(dim: usize) -> Shape {
        Shape { dim, head: dim }
    }

    fn is_head(self) -> bool {
        self.head < self.dim
    }

    fn indexable(self) -> bool {
        self.head <= MAX_HNSW_DIM
    }

    /// The compared expression over the vector column `col`, as the indexes of this shape hold it.
    fn expr(self, col: &str) -> String {
        if self.is_head() {
            format!("subvector({col}, 1, {h})::vector({h})", h = self.head)
        } else {
            format!("{col}::vector({})", self.dim)
        }
    }

    /// Parameter `$n` as the query vector of this shape (bound with `bind`).
    fn param(self, n: usize) -> String {
        format!("${n}::vector({})", self.head)
    }

    fn bind(self, query: &[f32]) -> pgvector::Vector {
        pgvector::Vector::from(query[..self.head].to_vec())
    }

    /// The name of the shared index of this shape (every scope's vectors).
    fn index_name(self) -> String {
        if self.is_head() {
            format!("vectors_hnsw_ip_{}_h{}", self.dim, self.head)
        } else {
            format!("vectors_hnsw_ip_{}", self.dim)
        }
    }

    /// The name of `scope`'s own index of this shape: scope names may hold any printable
    /// character, so the name carries a digest of the scope rather than the scope itself.
    fn scope_index_name(self, scope: &str) -> String {
        let digest = Sha256::digest(scope.as_bytes());
        let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
        format!("{}_s{hex}", self.index_name())
    }

    /// The statement building the shared index of this shape (`scope: None`) or one scope's;
    /// `concurrently`: without blocking writes. Dimensions are numbers rendered here and a scope
    /// is quoted by `literal`: no injection.
    fn index_sql(self, scope: Option<&str>, concurrently: bool) -> String {
        let (name, only) = match scope {
            Some(sc) => (self.scope_index_name(sc), format!(" AND scope = {}", literal(sc))),
            None => (self.index_name(), String::new()),
        };
        format!(
            "CREATE INDEX {}IF NOT EXISTS {name} ON vectors USING hnsw (({}) vector_ip_ops) WHERE dim = {}{only}",
            if concurrently { "CONCURRENTLY " } else { "" },
            self.expr("embedding"),
            self.dim
        )
    }
}

/// What follows a shape's part in a name `Shape` writes for vectors of `dim`
/// (`vectors_hnsw_ip_<dim>`, then `_h<digits>` for a head): empty for a shared index, `_s` and a
/// digest for a scope's. `None`: not a name of that dimension. Names read from the catalog go
/// into statements, so only the names this module writes are used.
fn after_shape(name: &str, dim: usize) -> Option<&str> {
    let rest = name.strip_prefix(&format!("vectors_hnsw_ip_{dim}"))?;
    let Some(h) = rest.strip_prefix("_h") else { return Some(rest) };
    let digits = h.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| &h[digits..])
}

/// Whether `name` is exactly the name of a scope index of vectors of `dim`, of any shape
/// (`Shape::scope_index_name`: `_s` and 16 hex digits after the shape).
fn is_scope_index_name(name: &str, dim: usize) -> bool {
    after_shape(name, dim)
        .and_then(|rest| rest.strip_prefix("_s"))
        .is_some_and(|h| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `name` is exactly the name of a shared index of vectors of `dim`, of any shape
/// (`Shape::index_name`).
fn is_shared_index_name(name: &str, dim: usize) -> bool {
    after_shape(name, dim) == Some("")
}

impl PgStore {
    /// Vector models present with their counts (to detect a model change).
    pub async fn vector_models(&self) -> Result<Vec<(String, u64)>> {
        let rows = sqlx::query("SELECT model, COUNT(*) FROM vectors GROUP BY model ORDER BY 2 DESC")
            .fetch_all(&self.pool)
            .await
            .map_err(db_err)?;
        rows.iter()
            .map(|r| Ok((r.try_get(0).map_err(db_err)?, r.try_get::<i64, _>(1).map_err(db_err)? as u64)))
            .collect()
    }

    /// Creates the partial HNSW index for vectors of `dim`, once per database, unless the
    /// dimension has a shared index of some shape already (where searches read the head, the
    /// whole vector's index is dropped once unused: see `retire_idle_shapes`; a search that needs
    /// it again builds it in the background). Why partial and per dimension: an HNSW index needs
    /// a fixed dimension, and a fixed-dimension column would make an embedding model change a
    /// schema migration. Creation is serialised across replicas by an advisory lock (CREATE
    /// INDEX IF NOT EXISTS alone races on the catalog).
    pub(crate) async fn ensure_vector_index(&self, dim: usize) -> Result<()> {
        if dim > MAX_HNSW_DIM || self.dims.contains(dim) {
            return Ok(());
        }
        let mut tx = self.pool.begin().await.map_err(db_err)?;
        sqlx::query("SELECT pg_advisory_xact_lock(7264, $1)")
            .bind(dim as i32)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let present = index_names(&mut *tx, dim).await?.iter().any(|n| is_shared_index_name(n, dim));
        if !present {
            // Building over rows already stored may take longer than the statement timeout allows.
            sqlx::query("SET LOCAL statement_timeout = 0").execute(&mut *tx).await.map_err(db_err)?;
            sqlx::raw_sql(AssertSqlSafe(hnsw_index_sql(dim))).execute(&mut *tx).await.map_err(db_err)?;
        }
        tx.commit().await.map_err(db_err)?;
        if !present {
            self.indexes.add(Shape::whole(dim).index_name());
        }
        self.dims.insert(dim);
        Ok(())
    }

    /// Records per scope (any status), from counts at most `SCOPE_COUNTS_TTL` old: one
    /// `GROUP BY` over the scope index per refresh. A refresh also rereads which HNSW indexes are
    /// valid, and starts building in the background those that searches of `shape` lack.
    async fn scope_counts(&self, shape: Shape) -> Result<Arc<HashMap<String, u64>>> {
        if let Some(c) = self.scope_counts.fresh(SCOPE_COUNTS_TTL) {
            return Ok(c);
        }
        let m = count_by_scope(&self.pool).await?;
        self.indexes.set(valid_indexes(&self.pool).await?);
        let counts = self.scope_counts.set(m);
        self.build_in_background(shape, Some(&counts));
        Ok(counts)
    }

    /// The shape whose indexes serve a query of `shape`: its own once its shared index is
    /// valid, and until then, for a head, the whole vector's (which ranks the same for a query
    /// whose tail is zero). At most once a `SCOPE_COUNTS_TTL`, the valid indexes are reread and
    /// the background work for `shape` started (`build_in_background`), and at most once in
    /// between for a shape whose shared index is missing.
    async fn served(&self, shape: Shape) -> Result<Shape> {
        if !shape.indexable() {
            return Ok(shape);
        }
        let name = shape.index_name();
        if !self.indexes.fresh(SCOPE_COUNTS_TTL) {
            self.indexes.set(valid_indexes(&self.pool).await?);
            self.build_in_background(shape, None);
        } else if !self.indexes.has(&name) && self.indexes.ask_build(&name, SCOPE_COUNTS_TTL) {
            self.build_in_background(shape, None);
        }
        let whole = Shape::whole(shape.dim);
        let ready = self.indexes.has(&name);
        Ok(if !ready && shape.is_head() && self.indexes.has(&whole.index_name()) { whole } else { shape })
    }

    /// Starts building, in the background, the HNSW indexes that searches of `shape` lack: its
    /// shared index, and (given the scopes' `counts`) the own index of each scope of
    /// `scope_index_from` records or more; then drops the dimension's shared indexes of other
    /// shapes once unused (`retire_idle_shapes`) and the scope indexes no longer wanted
    /// (`kept_indexes`). One build at a time per process, and across replicas one per index (an
    /// advisory lock). Searches use an index once it is valid.
    fn build_in_background(&self, shape: Shape, counts: Option<&HashMap<String, u64>>) {
        if !shape.indexable() {
            return;
        }
        let shared = !self.indexes.has(&shape.index_name());
        let others = self.indexes.shared_indexes_of(shape.dim).iter().any(|n| *n != shape.index_name());
        let wanted: Vec<String> = counts
            .map(|c| largest(c, self.scope_index_from))
            .unwrap_or_default()
            .into_iter()
            .filter(|sc| !self.indexes.has(&shape.scope_index_name(sc)))
            .collect();
        let keep = counts.map(|c| kept_indexes(shape, c, self.scope_index_from));
        let retire = keep
            .as_ref()
            .is_some_and(|keep| self.indexes.scope_indexes_of(shape.dim).iter().any(|n| !keep.contains(n)));
        if (!shared && !others && wanted.is_empty() && !retire) || !self.indexes.start_build() {
            return;
        }
        let (pool, indexes, idle_after) = (self.pool.clone(), self.indexes.clone(), self.retire_unused_after);
        tokio::spawn(async move {
            // Frees the build slot however the task ends, a panic included.
            let _slot = BuildSlot(indexes.clone());
            // A failure is logged where it happens; what is left is tried at the next refresh.
            if build_missing(&pool, &indexes, shape, shared, &wanted).await.is_err() {
                return;
            }
            if let Err(e) = retire_idle_shapes(&pool, &indexes, shape, idle_after).await {
                tracing::warn!(error = %e, "dropping an unused vector index of another shape failed; retried at the next refresh");
            }
            if let Some(keep) = keep {
                if let Err(e) = retire_unused(&pool, &indexes, shape.dim, &keep).await {
                    tracing::warn!(error = %e, "dropping the vector index of a scope that shrank failed; retried at the next refresh");
                }
            }
        });
    }

    /// Builds now every HNSW index that searches with queries shaped like `query` use (the
    /// head's shared index when the query's tail is zero, and each large scope's own index),
    /// drops the scope indexes of its dimension no longer wanted (`kept_indexes`), and returns
    /// the scopes indexed. Searches start these builds themselves in the background; this is for
    /// operators and benchmarks that want them before the first search.
    pub async fn index_for(&self, query: &[f32]) -> Result<Vec<String>> {
        check_vector(query)?;
        let shape = Shape::of(query);
        if !shape.indexable() {
            return Ok(Vec::new());
        }
        let counts = count_by_scope(&self.pool).await?;
        let scopes = largest(&counts, self.scope_index_from);
        let mut done = build_missing(&self.pool, &self.indexes, shape, true, &scopes).await?;
        retire_idle_shapes(&self.pool, &self.indexes, shape, self.retire_unused_after).await?;
        retire_unused(&self.pool, &self.indexes, shape.dim, &kept_indexes(shape, &counts, self.scope_index_from))
            .await?;
        done.sort();
        Ok(done)
    }
}

/// Builds the indexes searches of `shape` lack, one after another, noting each valid one: its
/// shared index first when `shared`, then those of `scopes`. Returns the scopes whose index is
/// valid, and stops at the first failure (logged with its index).
async fn build_missing(
    pool: &PgPool,
    indexes: &Indexes,
    shape: Shape,
    shared: bool,
    scopes: &[String],
) -> Result<Vec<String>> {
    let mut built = Vec::new();
    let jobs = shared.then_some(None).into_iter().chain(scopes.iter().map(|sc| Some(sc.as_str())));
    for scope in jobs {
        let name = scope.map_or_else(|| shape.index_name(), |sc| shape.scope_index_name(sc));
        match build_index(pool, &name, &shape.index_sql(scope, true)).await {
            Ok(true) => {
                indexes.add(name);
                built.extend(scope.map(str::to_string));
            }
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(index = %name, scope = ?scope, error = %e, "building a vector index failed; searches use the shared one meanwhile");
                return Err(e);
            }
        }
    }
    Ok(built)
}

/// Records per scope, any status.
async fn count_by_scope(pool: &PgPool) -> Result<HashMap<String, u64>> {
    let rows =
        sqlx::query("SELECT scope, COUNT(*) FROM experiences GROUP BY scope").fetch_all(pool).await.map_err(db_err)?;
    let mut m = HashMap::with_capacity(rows.len());
    for r in &rows {
        m.insert(r.try_get::<String, _>(0).map_err(db_err)?, r.try_get::<i64, _>(1).map_err(db_err)? as u64);
    }
    Ok(m)
}

/// Frees `Indexes`' build slot when dropped.
struct BuildSlot(Arc<Indexes>);

impl Drop for BuildSlot {
    fn drop(&mut self) {
        self.0.end_build();
    }
}

/// The scopes of at least `from` records, the largest first (ties by name), at most
/// `MAX_SCOPE_INDEXES`: those that get an index of their own.
fn largest(counts: &HashMap<String, u64>, from: u64) -> Vec<String> {
    let mut big: Vec<(&String, u64)> = counts.iter().filter(|(_, n)| **n >= from).map(|(sc, n)| (sc, *n)).collect();
    big.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    big.into_iter().take(MAX_SCOPE_INDEXES).map(|(sc, _)| sc.clone()).collect()
}

/// The scope indexes of `shape`'s dimension worth keeping: those of `shape` for the largest
/// scopes (`largest`) holding at least half of `index_from` records. A scope gets an index at
/// `index_from` and loses it only well below, so a scope near the size is not indexed and
/// dropped by turns; a smaller scope's index is unused (searches scan it exactly), and every
/// write to the scope still pays for it. Indexes of another shape (the whole vector's, where
/// searches read its head) are never searched.
fn kept_indexes(shape: Shape, counts: &HashMap<String, u64>, index_from: u64) -> HashSet<String> {
    largest(counts, index_from.div_ceil(2)).iter().map(|sc| shape.scope_index_name(sc)).collect()
}

/// Drops the scope indexes of vectors of `dim` not in `keep`, without blocking writes, each
/// under the advisory lock its build takes.
async fn retire_unused(pool: &PgPool, indexes: &Indexes, dim: usize, keep: &HashSet<String>) -> Result<()> {
    for name in index_names(pool, dim).await?.into_iter().filter(|n| !keep.contains(n) && is_scope_index_name(n, dim)) {
        indexes.remove(&name);
        drop_index(pool, &name).await?;
    }
    Ok(())
}

/// The indexes of `vectors` whose names start with `vectors_hnsw_ip_<dim>`, valid or not.
async fn index_names<'c>(conn: impl sqlx::PgExecutor<'c>, dim: usize) -> Result<Vec<String>> {
    names_from(conn, &format!("vectors_hnsw_ip_{dim}"), false).await
}

/// The indexes of `vectors` whose names start with `prefix`; `valid_only`: those usable now.
async fn names_from<'c>(conn: impl sqlx::PgExecutor<'c>, prefix: &str, valid_only: bool) -> Result<Vec<String>> {
    sqlx::query_scalar(
        "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
         WHERE i.indrelid = 'vectors'::regclass AND starts_with(c.relname::text, $1) AND (i.indisvalid OR NOT $2)",
    )
    .bind(prefix)
    .bind(valid_only)
    .fetch_all(conn)
    .await
    .map_err(db_err)
}

/// Drops the shared indexes of `shape`'s dimension of other shapes (the whole vector's, where
/// searches read the head) that no search has scanned for `idle_after` as this process has
/// watched them (the statistics' scan counts, which every replica's scans move), without
/// blocking writes. The index of `shape` itself is valid here, so nothing is left unindexed that
/// is searched; a replica that has not reread the valid indexes since searches without one
/// until it does (`SCOPE_COUNTS_TTL`).
async fn retire_idle_shapes(pool: &PgPool, indexes: &Indexes, shape: Shape, idle_after: Duration) -> Result<()> {
    let keep = shape.index_name();
    for name in
        index_names(pool, shape.dim).await?.into_iter().filter(|n| *n != keep && is_shared_index_name(n, shape.dim))
    {
        let scans: i64 =
            sqlx::query_scalar("SELECT COALESCE(idx_scan, 0) FROM pg_stat_user_indexes WHERE indexrelname = $1")
                .bind(&name)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
                .unwrap_or(0);
        if indexes.idle_for(&name, scans) >= idle_after {
            indexes.remove(&name);
            drop_index(pool, &name).await?;
        }
    }
    Ok(())
}

/// Drops the index `name` without blocking writes, under the advisory lock its build takes
/// (nothing when another session holds it).
async fn drop_index(pool: &PgPool, name: &str) -> Result<()> {
    if let Some(mut conn) = index_session(pool, name).await? {
        sqlx::raw_sql(AssertSqlSafe(format!("DROP INDEX CONCURRENTLY IF EXISTS {name}")))
            .execute(&mut conn)
            .await
            .map_err(db_err)?;
        let _ = conn.close().await;
    }
    Ok(())
}

/// A connection of its own for building or dropping the index `name` without blocking writes
/// (`CONCURRENTLY`, which refuses to run in a transaction, so each statement goes alone), with
/// no statement timeout, holding the advisory lock that keeps two replicas from working on the
/// same index (it ends with the connection, however the work ends); `None` when another session
/// holds it.
async fn index_session(pool: &PgPool, name: &str) -> Result<Option<sqlx::PgConnection>> {
    let mut conn = sqlx::PgConnection::connect_with(&pool.connect_options()).await.map_err(db_err)?;
    let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock(7265, hashtext($1))")
        .bind(name)
        .fetch_one(&mut conn)
        .await
        .map_err(db_err)?;
    if !locked {
        let _ = conn.close().await;
        return Ok(None);
    }
    sqlx::raw_sql("SET statement_timeout = 0").execute(&mut conn).await.map_err(db_err)?;
    Ok(Some(conn))
}

/// A scope as an SQL string literal, for an index predicate (which takes no parameters) and the
/// statements that must match it. Every session sets `standard_conforming_strings = on`
/// (`db::connect_options`), where doubling the quotes is the whole of the quoting; scope names
/// hold no control characters (`scope::parse`).
fn literal(scope: &str) -> String {
    format!("'{}'", scope.replace('\'', "''"))
}

/// Valid HNSW indexes of `vectors`, by name.
async fn valid_indexes(pool: &PgPool) -> Result<HashSet<String>> {
    Ok(names_from(pool, "vectors_hnsw_ip_", true).await?.into_iter().collect())
}

/// Builds the index `name` by `sql` (a `CREATE INDEX CONCURRENTLY`) in an `index_session`.
/// Returns whether the index is valid afterwards (false when another session holds the build).
async fn build_index(pool: &PgPool, name: &str, sql: &str) -> Result<bool> {
    let Some(mut conn) = index_session(pool, name).await? else { return Ok(false) };
    // A build interrupted earlier leaves an invalid index under the name, which IF NOT EXISTS
    // would keep forever.
    if index_valid(&mut conn, name).await? == Some(false) {
        sqlx::raw_sql(AssertSqlSafe(format!("DROP INDEX CONCURRENTLY IF EXISTS {name}")))
            .execute(&mut conn)
            .await
            .map_err(db_err)?;
    }
    sqlx::raw_sql(AssertSqlSafe(sql.to_string())).execute(&mut conn).await.map_err(db_err)?;
    let valid = index_valid(&mut conn, name).await? == Some(true);
    let _ = conn.close().await;
    Ok(valid)
}

/// Whether the index `name` is valid; `None` when there is none.
async fn index_valid(conn: &mut sqlx::PgConnection, name: &str) -> Result<Option<bool>> {
    sqlx::query_scalar(
        "SELECT i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1",
    )
    .bind(name)
    .fetch_optional(conn)
    .await
    .map_err(db_err)
}

/// Nearest records to `query` of `model` passing `filter`, as `(id, inner product)`. Unscoped,
/// from the shared HNSW index. Scoped: an exact scan when the scopes hold few records; else the
/// cheaper of two plans. The shared index filters after its scan, so for a search of a fifth of
/// the records it needs a candidate list five times as long; or each scope with an index of its
/// own is searched in it, the others together (exactly when few, else in the shared index), and
/// the parts merged. A large scope alone, or beside a few small ones, takes its own index; a key
/// reading many scopes keeps the shared one.
pub(crate) async fn candidates(
    s: &PgStore,
    model: &str,
    query: &[f32],
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    check_vector(query)?;
    let asked = Shape::of(query);
    let ef = (limit * 2).clamp(SESSION_EF_SEARCH, 1000);
    let Some(scopes) = &filter.scopes else {
        let shape = s.served(asked).await?;
        return hnsw(s, model, query, shape, filter, limit, ef, None).await;
    };
    let counts = s.scope_counts(asked).await?;
    let shape = s.served(asked).await?;
    let size = |list: &[String]| list.iter().map(|sc| counts.get(sc).copied().unwrap_or(0)).sum::<u64>();
    let all: u64 = counts.values().sum();
    let mut seen = HashSet::new();
    let scopes: Vec<String> = scopes.iter().filter(|sc| seen.insert(sc.as_str())).cloned().collect();
    let n = size(&scopes);
    if n <= s.exact_scan_up_to {
        return exact(s, model, query, asked, filter, limit).await;
    }
    // A scope that shrank below the size keeps its index, unused, until it falls below half of
    // it (`kept_indexes`): it is scanned exactly again.
    let (own, rest): (Vec<String>, Vec<String>) = scopes.into_iter().partition(|sc| {
        shape.indexable()
            && counts.get(sc).is_some_and(|n| *n >= s.scope_index_from)
            && s.indexes.has(&shape.scope_index_name(sc))
    });
    // The cheaper plan: the shared index with a list widened for what its filter drops, or each
    // own index with the usual list plus the other scopes apart. The parts are priced as if run
    // one after another: on a busy database server they are.
    let shared_ef = scoped_ef(ef, n, all);
    let rest_n = size(&rest);
    let rest_exact = rest_n <= s.exact_scan_up_to;
    let rest_cost = match (rest.is_empty(), rest_exact) {
        (true, _) => 0,
        (false, true) => STATEMENT_COST + rest_n / EXACT_PER_CANDIDATE,
        (false, false) => STATEMENT_COST + visited(scoped_ef(ef, rest_n, all), limit, rest_n, all),
    };
    let split_cost = own.len() as u64 * (STATEMENT_COST + ef as u64) + rest_cost;
    // Only a clear gain splits: the parts' estimates are rough, and each own index a search
    // reads competes with the shared one for the database's cache.
    if own.is_empty() || split_cost * 3 >= (STATEMENT_COST + visited(shared_ef, limit, n, all)) * 2 {
        let asked = (shared_ef * SHARED_LIST_SHARE.0 / SHARED_LIST_SHARE.1).max(ef);
        return hnsw(s, model, query, shape, filter, limit, asked, None).await;
    }
    let only = |list: Vec<String>| SearchFilter { scopes: Some(list), ..filter.clone() };
    let own: Vec<(String, SearchFilter)> = own.into_iter().map(|sc| (sc.clone(), only(vec![sc]))).collect();
    let rest = (!rest.is_empty()).then(|| only(rest));
    let mut parts: Vec<BoxFuture<'_, Result<Scored>>> =
        own.iter().map(|(sc, f)| hnsw(s, model, query, shape, f, limit, ef, Some(sc.as_str())).boxed()).collect();
    if let Some(f) = &rest {
        parts.push(if rest_exact {
            exact(s, model, query, asked, f, limit).boxed()
        } else {
            hnsw(s, model, query, shape, f, limit, scoped_ef(ef, rest_n, all), None).boxed()
        });
    }
    let mut out: Vec<(String, f64)> = try_join_all(parts).await?.into_iter().flatten().collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.truncate(limit);
    Ok(out)
}

/// `candidates` from the HNSW indexes of `shape` with a candidate list of `ef`. `own_scope`: the
/// filter is that one scope, which has an index of its own; the scope is then also written into
/// the statement as a literal, so that even the plan prepared once for every later search (where
/// parameters are unknown) can prove the partial index's predicate and use it, and each such
/// scope's statement is prepared once per connection rather than planned on every search.
#[allow(clippy::too_many_arguments)]
async fn hnsw(
    s: &PgStore,
    model: &str,
    query: &[f32],
    shape: Shape,
    filter: &SearchFilter,
    limit: usize,
    ef: usize,
    own_scope: Option<&str>,
) -> Result<Vec<(String, f64)>> {
    let own = own_scope.map_or(String::new(), |sc| format!(" AND v.scope = {}", literal(sc)));
    // A longer list through the shared index is set by the statement itself: a condition on no
    // column is a one-time filter, evaluated before the index scan returns its first row (when
    // pgvector reads `hnsw.ef_search`), and a local setting ends with the statement's implicit
    // transaction. One round trip, where a transaction to set it costs three more.
    let inline_ef = own_scope.is_none() && ef > SESSION_EF_SEARCH;
    let ef_param = 4 + filter::PARAMS;
    let set_ef = if inline_ef {
        format!(" AND (SELECT set_config('hnsw.ef_search', ${ef_param}::text, true)) IS NOT NULL")
    } else {
        String::new()
    };
    // The expression and the `dim = N` literal match the partial index's expression and
    // predicate. The vectors' own scope drops other scopes' candidates before any join to their
    // records.
    let sql = format!(
        "WITH c AS MATERIALIZED (SELECT e.id, {} <#> {} AS d \
         FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE v.dim = {}{own} AND v.model = $2 AND (${s}::text[] IS NULL OR v.scope = ANY(${s}::text[])) AND {}{set_ef} \
         ORDER BY d LIMIT ${}) SELECT id, (-d)::float8 FROM c ORDER BY d",
        shape.expr("v.embedding"),
        shape.param(1),
        shape.dim,
        filter::sql(3),
        3 + filter::PARAMS,
        s = filter::scopes_param(3),
    );
    let query =
        filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(shape.bind(query)).bind(model), filter).bind(limit as i64);
    if own_scope.is_none() {
        let query = if inline_ef { query.bind(ef.to_string()) } else { query };
        return scored(query.fetch_all(&s.pool).await.map_err(db_err)?);
    }
    // A scope's own index: the planner, left to choose, may sort a small scope's rows rather than
    // walk the index (20 ms against 2 for 2,000 vectors); told not to, it walks it. Planner
    // settings must be in place before the statement is planned, hence a transaction.
    let walk = ", set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true), \
         set_config('enable_bitmapscan', 'off', true)";
    let mut tx = s.pool.begin().await.map_err(db_err)?;
    sqlx::query(AssertSqlSafe(format!("SELECT set_config('hnsw.ef_search', $1, true){walk}")))
        .bind(ef.to_string())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    let rows = query.fetch_all(&mut *tx).await.map_err(db_err)?;
    tx.commit().await.map_err(db_err)?;
    scored(rows)
}

/// The candidates an HNSW search with a list of `ef` visits when its filter passes `n` of `all`
/// records: its iterative scan goes on until `limit` of them pass, about `limit * all / n`.
fn visited(ef: usize, limit: usize, n: u64, all: u64) -> u64 {
    (ef as u64).max((limit as u64).saturating_mul(all) / n.max(1))
}

/// The HNSW candidate list for a search whose filter passes `n` of `all` records: HNSW filters
/// after its scan, so a list sized for about `ef` passing records keeps recall at the unscoped
/// search's. A shorter list leaves the rest to the iterative scan's later rounds, which cost
/// more than the longer first list and rank worse (`knowhub-bench scopes`: with a list grown by
/// the square root of the share left out, a key reading a third of the records searched slower
/// and at lower recall). Up to `SCOPED_EF_MAX`; never below `ef`.
fn scoped_ef(ef: usize, n: u64, all: u64) -> usize {
    let wide = (ef as u64).saturating_mul(all).div_ceil(n.max(1));
    (wide.min(SCOPED_EF_MAX as u64) as usize).max(ef)
}

/// `candidates` by an exact scan of the scopes' vectors: the nearest `EXACT_POOL` times `limit`
/// of them through the vectors' own scope index (no join per row), then only those joined to
/// their records for the rest of the filter. When fewer than `limit` of those pass and the scopes
/// hold more, `exact_filtered` answers instead. The result is exact either way: a record outside
/// the nearest `EXACT_POOL * limit` is farther than every one inside, passing or not. The `+ 0`
/// makes the ordering an expression the HNSW index cannot serve, so the planner cannot turn the
/// plan around into an index scan filtered afterwards.
async fn exact(
    s: &PgStore,
    model: &str,
    query: &[f32],
    shape: Shape,
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    let pool = limit.saturating_mul(EXACT_POOL).max(1);
    let sql = format!(
        "WITH c AS MATERIALIZED (SELECT v.seq, ({} <#> {}) + 0 AS d \
         FROM vectors v WHERE v.scope = ANY(${}::text[]) AND v.dim = {} AND v.model = $2 ORDER BY d LIMIT ${}) \
         SELECT e.id, (-c.d)::float8, ({}) FROM c JOIN experiences e ON e.seq = c.seq ORDER BY c.d",
        shape.expr("v.embedding"),
        shape.param(1),
        filter::scopes_param(3),
        shape.dim,
        3 + filter::PARAMS,
        filter::sql(3),
    );
    let rows = filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(shape.bind(query)).bind(model), filter)
        .bind(pool as i64)
        .fetch_all(&s.pool)
        .await
        .map_err(db_err)?;
    let mut out = Vec::with_capacity(limit);
    for r in &rows {
        if out.len() == limit {
            break;
        }
        if r.try_get::<bool, _>(2).map_err(db_err)? {
            out.push((r.try_get(0).map_err(db_err)?, r.try_get(1).map_err(db_err)?));
        }
    }
    if out.len() < limit && rows.len() == pool {
        return exact_filtered(s, model, query, shape, filter, limit).await;
    }
    Ok(out)
}

/// `exact` for a filter that drops many of the scopes' nearest records (an agent's own records,
/// a minimum rating, many held): the records passing the whole filter first (through the scope
/// index of `experiences`), then their vectors.
async fn exact_filtered(
    s: &PgStore,
    model: &str,
    query: &[f32],
    shape: Shape,
    filter: &SearchFilter,
    limit: usize,
) -> Result<Vec<(String, f64)>> {
    let sql = format!(
        "WITH f AS MATERIALIZED (SELECT e.seq, e.id FROM experiences e WHERE {}), \
         c AS MATERIALIZED (SELECT f.id, ({} <#> {}) + 0 AS d \
         FROM f JOIN vectors v ON v.seq = f.seq WHERE v.dim = {} AND v.model = $2 ORDER BY d LIMIT ${}) \
         SELECT id, (-d)::float8 FROM c ORDER BY d",
        filter::sql(3),
        shape.expr("v.embedding"),
        shape.param(1),
        shape.dim,
        3 + filter::PARAMS
    );
    let query =
        filter::bind(sqlx::query(AssertSqlSafe(sql)).bind(shape.bind(query)).bind(model), filter).bind(limit as i64);
    scored(query.fetch_all(&s.pool).await.map_err(db_err)?)
}

/// The given records' block scores against `query`.
pub(crate) async fn scores(
    pool: &PgPool,
    model: &str,
    query: &[f32],
    ids: &[String],
) -> Result<Vec<(String, BlockScores)>> {
    check_vector(query)?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    // One dot product per column block, from `subvector`s of the stored vector and the query.
    let dim = query.len();
    let dots: Vec<String> = (0..dim.div_ceil(VECTOR_BLOCK))
        .map(|b| {
            let (from, len) = (b * VECTOR_BLOCK + 1, VECTOR_BLOCK.min(dim - b * VECTOR_BLOCK));
            format!("(-(subvector(v.embedding, {from}, {len}) <#> subvector($1, {from}, {len})))::float8")
        })
        .collect();
    let sql = format!(
        "SELECT e.id, ARRAY[{}], v.block_norms::float8[] FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE e.id = ANY($2) AND v.model = $3 AND v.dim = $4",
        dots.join(", ")
    );
    let rows = sqlx::query(AssertSqlSafe(sql))
        .bind(pgvector::Vector::from(query.to_vec()))
        .bind(ids)
        .bind(model)
        .bind(dim as i32)
        .fetch_all(pool)
        .await
        .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let id: String = r.try_get(0).map_err(db_err)?;
            Ok((id, BlockScores { dots: r.try_get(1).map_err(db_err)?, norms: r.try_get(2).map_err(db_err)? }))
        })
        .collect()
}

/// The stored vectors of `model` for the given records.
pub(crate) async fn by_ids(pool: &PgPool, model: &str, ids: &[String]) -> Result<Vec<(String, Vec<f32>)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows = sqlx::query(
        "SELECT e.id, v.embedding FROM vectors v JOIN experiences e ON e.seq = v.seq \
         WHERE e.id = ANY($1) AND v.model = $2",
    )
    .bind(ids)
    .bind(model)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let v: pgvector::Vector = r.try_get(1).map_err(db_err)?;
            Ok((r.try_get(0).map_err(db_err)?, v.to_vec()))
        })
        .collect()
}

/// Stores vectors (records deleted meanwhile are skipped), creating the index for a new dimension.
pub(crate) async fn set(s: &PgStore, model: &str, items: &[(String, Vec<f32>)]) -> Result<()> {
    let mut dims: Vec<usize> = items.iter().map(|(_, v)| v.len()).collect();
    dims.sort_unstable();
    dims.dedup();
    for d in dims {
        if d == 0 || d > 16_000 {
            return Err(CoreError::invalid("vector", format!("dimension {d} not supported (1..16000)")));
        }
        s.ensure_vector_index(d).await?;
    }
    let mut tx = s.pool.begin().await.map_err(db_err)?;
    for (id, v) in items {
        // Records deleted meanwhile are skipped (no row to join), like in SQLite. The record's
        // scope goes with its vector; the share lock makes a concurrent scope move
        // (`records::set_scope`) either wait for this row or be seen by it.
        sqlx::query(
            "INSERT INTO vectors (seq, model, dim, embedding, block_norms, scope) \
             SELECT seq, $2, $3, $4, $5, scope FROM experiences WHERE id = $1 FOR SHARE \
             ON CONFLICT (seq) DO UPDATE SET model = EXCLUDED.model, dim = EXCLUDED.dim, embedding = EXCLUDED.embedding, \
             block_norms = EXCLUDED.block_norms, scope = EXCLUDED.scope",
        )
        .bind(id)
        .bind(model)
        .bind(v.len() as i32)
        .bind(pgvector::Vector::from(v.clone()))
        .bind(knowhub_core::store::block_norms(v).into_iter().map(|n| n as f32).collect::<Vec<f32>>())
        .execute(&mut *tx)
        .await
        .map_err(db_err)?;
    }
    tx.commit().await.map_err(db_err)
}

/// Records not rejected that have no vector of `model` yet, oldest first, with their text.
pub(crate) async fn missing(pool: &PgPool, model: &str, limit: usize) -> Result<Vec<(String, String)>> {
    let rows = sqlx::query(
        "SELECT e.id, e.task, e.resource, e.result FROM experiences e WHERE e.status <> 'rejected' \
         AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.seq = e.seq AND v.model = $1) ORDER BY e.seq LIMIT $2",
    )
    .bind(model)
    .bind(limit as i64)
    .fetch_all(pool)
    .await
    .map_err(db_err)?;
    rows.iter()
        .map(|r| {
            let (id, t, rs, res): (String, String, String, String) = (
                r.try_get(0).map_err(db_err)?,
                r.try_get(1).map_err(db_err)?,
                r.try_get(2).map_err(db_err)?,
                r.try_get(3).map_err(db_err)?,
            );
            Ok((id, knowhub_core::search_text(&t, &rs, &res)))
        })
        .collect()
}

pub(crate) async fn count(pool: &PgPool, model: &str) -> Result<u64> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM vectors WHERE model = $1")
        .bind(model)
        .fetch_one(pool)
        .await
        .map_err(db_err)?;
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::{
        is_scope_index_name, is_shared_index_name, largest, scoped_ef, Shape, MAX_SCOPE_INDEXES, SCOPED_EF_MAX,
    };

    #[test]
    fn own_indexes_go_to_the_largest_scopes_up_to_a_bound() {
        let mut counts: std::collections::HashMap<String, u64> =
            (0..100).map(|i| (format!("team/t{i:03}"), 1000 + i as u64)).collect();
        counts.insert("org".into(), 50_000);
        counts.insert("team/tiny".into(), 999);
        counts.insert("team/also".into(), 1099);
        let picked = largest(&counts, 1000);
        assert_eq!(picked.len(), MAX_SCOPE_INDEXES);
        assert_eq!(picked[0], "org");
        assert_eq!(picked[1..3], ["team/also".to_string(), "team/t099".to_string()], "then by size, ties by name");
        assert_eq!(picked[3], "team/t098");
        assert!(!picked.contains(&"team/tiny".to_string()));
        assert_eq!(largest(&counts, 60_000), Vec::<String>::new());
    }

    #[test]
    fn a_zero_tail_reads_the_head_up_to_its_last_block() {
        let mut q = vec![0.0f32; 768];
        q[3] = 0.5;
        assert_eq!(Shape::of(&q), Shape { dim: 768, head: 384 }, "the E5 block of a composite query");
        q[383] = 0.1;
        assert_eq!(Shape::of(&q).head, 384);
        q[384] = 0.1;
        assert_eq!(Shape::of(&q), Shape::whole(768), "a non-zero value in the last block");
        assert_eq!(Shape::of(&[0.2, 0.0, 0.0]), Shape::whole(3), "one block: nothing to drop");
        let mut big = vec![0.0f32; 3072];
        big[10] = 1.0;
        assert_eq!(Shape::of(&big), Shape { dim: 3072, head: 384 });
        big[2500] = 1.0;
        assert!(!Shape::of(&big).indexable(), "a head past HNSW's limit is not indexed");
    }

    #[test]
    fn index_names_of_either_shape_are_recognised_and_nothing_else() {
        let (whole, head) = (Shape::whole(768), Shape { dim: 768, head: 384 });
        for shape in [whole, head] {
            let name = shape.scope_index_name("team/o'ne");
            assert!(is_scope_index_name(&name, 768), "{name}");
            assert!(!is_scope_index_name(&name, 384), "{name}");
        }
        assert_ne!(whole.scope_index_name("org"), head.scope_index_name("org"));
        assert!(!is_scope_index_name(&whole.index_name(), 768));
        assert!(!is_scope_index_name(&head.index_name(), 768));
        assert!(is_shared_index_name(&whole.index_name(), 768) && is_shared_index_name(&head.index_name(), 768));
        assert!(!is_shared_index_name(&whole.index_name(), 76) && !is_shared_index_name(&head.index_name(), 7));
        assert!(!is_shared_index_name(&head.scope_index_name("org"), 768));
        assert!(!is_shared_index_name("vectors_hnsw_ip_768_h", 768));
        assert!(!is_shared_index_name("vectors_hnsw_ip_7680", 768));
        for bad in [
            "vectors_hnsw_ip_768_h_s0123456789abcdef",
            "vectors_hnsw_ip_768_hx_s0123456789abcdef",
            "vectors_hnsw_ip_768_s0123456789abcde",
            "vectors_hnsw_ip_768_s0123456789abcdef; DROP TABLE x",
        ] {
            assert!(!is_scope_index_name(bad, 768), "{bad}");
        }
    }

    #[test]
    fn scoped_candidate_list_grows_with_what_the_filter_drops() {
        assert_eq!(scoped_ef(80, 25_000, 100_000), 320, "a quarter passes: four times the list");
        assert_eq!(scoped_ef(80, 100_000, 100_000), 80, "everything passes");
        assert_eq!(scoped_ef(80, 5_000, 100_000), SCOPED_EF_MAX, "capped");
        assert_eq!(scoped_ef(800, 5_000, 100_000), 800, "a larger list asked for stays");
        assert_eq!(scoped_ef(80, 0, 0), 80, "no records counted");
    }
}
