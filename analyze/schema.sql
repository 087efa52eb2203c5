-- schedlab database schema, version 2 (PRAGMA user_version).
-- Times are integer nanoseconds. Documented in docs/schema.md.
CREATE TABLE IF NOT EXISTS trace (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL,
	sha256 TEXT NOT NULL UNIQUE,
	format TEXT NOT NULL,
	cpus INTEGER NOT NULL DEFAULT 0,
	first_ts INTEGER NOT NULL DEFAULT 0,
	last_ts INTEGER NOT NULL DEFAULT 0,
	events INTEGER NOT NULL DEFAULT 0,
	lost_events INTEGER NOT NULL DEFAULT 0,
	imported_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS trace_cpu (
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	cpu INTEGER NOT NULL,
	lost_events INTEGER NOT NULL,
	PRIMARY KEY (trace_id, cpu)
);
CREATE TABLE IF NOT EXISTS thread (
	utid INTEGER PRIMARY KEY,
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	tid INTEGER NOT NULL,
	tgid INTEGER,
	comm TEXT NOT NULL,
	nice INTEGER NOT NULL DEFAULT 0,
	policy TEXT NOT NULL DEFAULT 'normal',
	rt_priority INTEGER NOT NULL DEFAULT 0,
	first_ts INTEGER,
	last_ts INTEGER
);
CREATE INDEX IF NOT EXISTS thread_trace ON thread(trace_id, utid);
-- behaviour model: how each task starts, and its bursts and sleeps
CREATE TABLE IF NOT EXISTS task_model (
	utid INTEGER PRIMARY KEY REFERENCES thread(utid),
	start_ns INTEGER NOT NULL,
	parent_utid INTEGER,
	parent_progress_ns INTEGER NOT NULL DEFAULT 0,
	flags INTEGER NOT NULL DEFAULT 0,
	cpumask INTEGER NOT NULL DEFAULT 0,
	initially_runnable INTEGER NOT NULL DEFAULT 1,
	run_ns INTEGER NOT NULL DEFAULT 0,
	sleep_ns INTEGER NOT NULL DEFAULT 0,
	count INTEGER NOT NULL DEFAULT 0,
	-- the task's phases as a JSON array, one [run_ns, sleep_ns, end_state,
	-- waker_kind, waker_utid, waker_progress_ns, pipe, lost] per burst
	-- (view burst below gives one row each)
	phases TEXT NOT NULL DEFAULT '[]'
);
CREATE VIEW IF NOT EXISTS burst AS
SELECT m.utid AS utid, CAST(j.key AS INTEGER) AS seq,
	json_extract(j.value, '$[0]') AS run_ns, json_extract(j.value, '$[1]') AS sleep_ns,
	json_extract(j.value, '$[2]') AS end_state, json_extract(j.value, '$[3]') AS waker_kind,
	json_extract(j.value, '$[4]') AS waker_utid, json_extract(j.value, '$[5]') AS waker_progress_ns,
	json_extract(j.value, '$[6]') AS pipe, json_extract(j.value, '$[7]') AS lost
FROM task_model m, json_each(m.phases) j;
CREATE TABLE IF NOT EXISTS run (
	id INTEGER PRIMARY KEY,
	trace_id INTEGER NOT NULL REFERENCES trace(id),
	scheduler TEXT NOT NULL,
	params TEXT NOT NULL DEFAULT '{}',
	cpus INTEGER NOT NULL,
	mode TEXT NOT NULL DEFAULT 'recorded',
	seed INTEGER NOT NULL DEFAULT 0,
	created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
-- Where a run's rows are: the rows a run adds to sched_slice, wakeup,
-- staircase and rotation have rowids in [first_rowid, last_rowid] (written in
-- one transaction, so a contiguous range). These four tables have no index on
-- run_id (an index costs as much as the rows themselves to write); schedlab
-- reads a run by this range, and WHERE run_id = N in the sqlite3 shell scans.
CREATE TABLE IF NOT EXISTS run_rows (
	run_id INTEGER NOT NULL REFERENCES run(id),
	tbl TEXT NOT NULL,
	first_rowid INTEGER NOT NULL,
	last_rowid INTEGER NOT NULL,
	rows INTEGER NOT NULL,
	PRIMARY KEY (run_id, tbl)
);
CREATE TABLE IF NOT EXISTS sched_slice (
	run_id INTEGER NOT NULL REFERENCES run(id),
	ts INTEGER NOT NULL,
	dur INTEGER NOT NULL,
	cpu INTEGER NOT NULL,
	utid INTEGER NOT NULL REFERENCES thread(utid),
	end_state TEXT NOT NULL,
	priority INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS wakeup (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL REFERENCES thread(utid),
	ts INTEGER NOT NULL,
	ts_run INTEGER,
	waker_utid INTEGER,
	cpu INTEGER
);
CREATE TABLE IF NOT EXISTS staircase (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER NOT NULL,
	ts INTEGER NOT NULL,
	level INTEGER NOT NULL,
	array INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS rotation (
	run_id INTEGER NOT NULL REFERENCES run(id),
	cpu INTEGER NOT NULL,
	ts INTEGER NOT NULL,
	kind TEXT NOT NULL,
	level INTEGER
);
CREATE TABLE IF NOT EXISTS metric (
	run_id INTEGER NOT NULL REFERENCES run(id),
	utid INTEGER,
	name TEXT NOT NULL,
	value REAL
);
CREATE INDEX IF NOT EXISTS metric_run ON metric(run_id, utid, name);
CREATE VIEW IF NOT EXISTS task_summary AS
SELECT r.id AS run_id, th.utid AS utid, th.tid AS tid, th.comm AS comm, th.nice AS nice,
	COALESCE(s.runtime_ns, 0) AS runtime_ns, COALESCE(s.switches, 0) AS switches,
	COALESCE(w.wakeups, 0) AS wakeups, w.avg_delay_ns AS avg_delay_ns,
	w.max_delay_ns AS max_delay_ns
FROM run r
JOIN thread th ON th.trace_id = r.trace_id
LEFT JOIN (SELECT run_id, utid, SUM(dur) AS runtime_ns, COUNT(*) AS switches
	   FROM sched_slice GROUP BY run_id, utid) s ON s.run_id = r.id AND s.utid = th.utid
LEFT JOIN (SELECT run_id, utid, COUNT(*) AS wakeups,
		  AVG(CASE WHEN ts_run IS NOT NULL THEN ts_run - ts END) AS avg_delay_ns,
		  MAX(CASE WHEN ts_run IS NOT NULL THEN ts_run - ts END) AS max_delay_ns
	   FROM wakeup GROUP BY run_id, utid) w ON w.run_id = r.id AND w.utid = th.utid
WHERE s.switches IS NOT NULL OR w.wakeups IS NOT NULL;
