//! Runs the HTTP plan against one server: for each session count, that many sessions (one
//! keep-alive connection each) call `tools/call echo` in sequence; then, on a fresh server, the
//! resident memory of idle legacy sessions.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::client::BodyKind;
use super::server::ServerProcess;
use super::session::{McpSession, Outcome};
use crate::driver::{
    EchoCounts, Error, LARGE_PAYLOAD, Mode, SMALL_PAYLOAD, filler, payload_text, percentile_us,
    proc_cpu_us, proc_status_kib,
};

/// A server to benchmark over HTTP.
#[derive(Clone, Debug)]
pub struct HttpTarget {
    /// Row label in the report.
    pub label: String,
    /// `libmcp` or `rmcp`, for ratios.
    pub implementation: String,
    /// The era spoken.
    pub mode: Mode,
    /// The server executable (run with `--http 127.0.0.1:0` after `args`).
    pub program: PathBuf,
    /// Arguments before `--http` (e.g. the script a `node` program runs).
    pub args: Vec<String>,
}

/// One measured (or warm-up) phase: `requests` calls of `payload` bytes shared by the sessions.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct HttpPhaseSpec {
    /// Length of the `text` argument in bytes.
    pub payload: usize,
    /// Calls in all sessions together (fewer if the time limit is hit first).
    pub requests: usize,
}

/// What to run against each target.
#[derive(Clone, Debug)]
pub struct HttpPlan {
    /// Concurrent sessions, one round of phases each (e.g. 1 and 32).
    pub sessions: Vec<usize>,
    /// Unmeasured phases run on the sessions before the measured ones.
    pub warmup: Vec<HttpPhaseSpec>,
    /// Measured phases.
    pub phases: Vec<HttpPhaseSpec>,
    /// Longest a phase may send for.
    pub phase_time: Duration,
    /// Check the echoed text of every n-th call (1 = all).
    pub verify_every: usize,
    /// Idle legacy sessions to open for the memory measurement, cumulative (e.g. 1,000 then
    /// 5,000); empty to skip it.
    pub idle_sessions: Vec<usize>,
    /// Socket I/O timeout: a server silent for this long fails the run.
    pub io_timeout: Duration,
}

impl HttpPlan {
    /// The echo benchmark over `sessions` (e.g. 1 and 32): warm-up, then the small and the large
    /// text; then `idle_sessions` for the memory measurement.
    pub fn echo(
        n: EchoCounts,
        sessions: Vec<usize>,
        phase_time: Duration,
        verify_every: usize,
        idle_sessions: Vec<usize>,
    ) -> HttpPlan {
        let phase = |(payload, requests)| HttpPhaseSpec { payload, requests };
        HttpPlan {
            sessions,
            warmup: [
                (SMALL_PAYLOAD, n.warm),
                (LARGE_PAYLOAD, (n.warm / 10).max(1)),
            ]
            .map(phase)
            .to_vec(),
            phases: [(SMALL_PAYLOAD, n.small), (LARGE_PAYLOAD, n.large)]
                .map(phase)
                .to_vec(),
            phase_time,
            verify_every,
            idle_sessions,
            io_timeout: Duration::from_secs(30),
        }
    }
}

/// The measurements of one phase.
#[derive(Clone, Debug, Serialize)]
pub struct HttpPhaseResult {
    /// Concurrent sessions (= connections).
    pub sessions: usize,
    /// Argument size in bytes.
    pub payload: usize,
    /// Calls sent.
    pub sent: usize,
    /// Responses read.
    pub received: usize,
    /// JSON-RPC errors, tool errors and non-200 answers.
    pub errors: usize,
    /// Responses whose echoed text was checked.
    pub verified: usize,
    /// Checked responses whose text differed from what was sent.
    pub mismatched: usize,
    /// Responses that came as `application/json`.
    pub json_bodies: usize,
    /// Responses that came as `text/event-stream`.
    pub sse_bodies: usize,
    /// From the first send to the last response, seconds.
    pub elapsed_s: f64,
    /// Responses per second.
    pub throughput: f64,
    /// Median latency (request written to response read), microseconds.
    pub p50_us: f64,
    /// 99th percentile latency, microseconds.
    pub p99_us: f64,
    /// Slowest call, microseconds.
    pub max_us: f64,
    /// Server CPU time (user + system) during the phase per response, microseconds.
    pub server_cpu_us_per_req: f64,
    /// The driver's own CPU time during the phase per response, microseconds: it shares the cores
    /// with the server, so a driver that costs more than the server caps the throughput.
    pub driver_cpu_us_per_req: f64,
}

/// Resident memory of idle legacy sessions on a fresh server.
#[derive(Clone, Debug, Serialize)]
pub struct IdleMemory {
    /// Idle sessions open (initialize + initialized, no GET stream).
    pub sessions: usize,
    /// VmRSS growth over the baseline, KiB.
    pub rss_growth_kib: u64,
    /// That growth per session, bytes.
    pub bytes_per_session: f64,
}

/// Everything measured against one target.
#[derive(Clone, Debug, Serialize)]
pub struct HttpRunResult {
    /// The target's label.
    pub label: String,
    /// `libmcp` or `rmcp`.
    pub implementation: String,
    /// The era spoken.
    pub mode: Mode,
    /// VmRSS once the server listens and has answered one session, KiB.
    pub rss_start_kib: u64,
    /// Peak resident memory (VmHWM) after the measured phases, KiB.
    pub peak_rss_kib: u64,
    /// The measured phases, per session count then payload.
    pub phases: Vec<HttpPhaseResult>,
    /// Idle-session memory (legacy era only).
    pub idle: Vec<IdleMemory>,
}

/// Runs the plan against a freshly spawned server (and the idle-memory measurement against another).
pub fn run_http_target(target: &HttpTarget, plan: &HttpPlan) -> Result<HttpRunResult, Error> {
    let server = ServerProcess::spawn(&target.program, &target.args)?;
    let pid = server.pid();
    let mut probe = McpSession::open(server.addr, target.mode, plan.io_timeout)?;
    probe.check_tools()?;
    drop(probe);
    let rss_start_kib = proc_status_kib(pid, "VmRSS:").unwrap_or(0);
    let mut phases = Vec::new();
    let mut next_id = 1;
    for &n in &plan.sessions {
        let mut sessions = (0..n)
            .map(|_| McpSession::open(server.addr, target.mode, plan.io_timeout))
            .collect::<Result<Vec<_>, _>>()?;
        for w in &plan.warmup {
            run_phase(&mut sessions, w, next_id, plan, pid)?;
            next_id += w.requests as u64;
        }
        for spec in &plan.phases {
            phases.push(run_phase(&mut sessions, spec, next_id, plan, pid)?);
            next_id += spec.requests as u64;
        }
    }
    let peak_rss_kib = proc_status_kib(pid, "VmHWM:").ok_or("cannot read VmHWM")?;
    server.stop()?;
    let idle = if target.mode == Mode::Legacy && !plan.idle_sessions.is_empty() {
        idle_memory(target, plan)?
    } else {
        Vec::new()
    };
    Ok(HttpRunResult {
        label: target.label.clone(),
        implementation: target.implementation.clone(),
        mode: target.mode,
        rss_start_kib,
        peak_rss_kib,
        phases,
        idle,
    })
}

#[derive(Default)]
struct Tally {
    lat_ns: Vec<u64>,
    sent: usize,
    errors: usize,
    verified: usize,
    mismatched: usize,
    json: usize,
    sse: usize,
    first: Option<Instant>,
    last: Option<Instant>,
}

/// Session `t` of `n` sends calls `base + t`, `base + t + n`, ... so ids (and texts) are unique.
fn session_calls(
    s: &mut McpSession,
    (t, n): (usize, usize),
    spec: &HttpPhaseSpec,
    base: u64,
    plan: &HttpPlan,
    fill: &[u8],
    start_line: &Barrier,
) -> Result<Tally, Error> {
    let mut tally = Tally {
        lat_ns: Vec::with_capacity(spec.requests / n + 1),
        ..Tally::default()
    };
    start_line.wait();
    let deadline = Instant::now() + plan.phase_time;
    let mut i = t;
    while i < spec.requests {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        let id = base + i as u64;
        let text = payload_text(id, spec.payload, fill);
        tally.first.get_or_insert(now);
        tally.sent += 1;
        let (outcome, kind) = s.call_echo(id, &text, i.is_multiple_of(plan.verify_every))?;
        let done = Instant::now();
        tally.lat_ns.push((done - now).as_nanos() as u64);
        tally.last = Some(done);
        match outcome {
            Outcome::Checked(same) => {
                tally.verified += 1;
                tally.mismatched += usize::from(!same);
            }
            Outcome::Unchecked => {}
            Outcome::Error => tally.errors += 1,
        }
        match kind {
            BodyKind::Json => tally.json += 1,
            BodyKind::Sse => tally.sse += 1,
            _ => {}
        }
        i += n;
    }
    Ok(tally)
}

fn run_phase(
    sessions: &mut [McpSession],
    spec: &HttpPhaseSpec,
    base: u64,
    plan: &HttpPlan,
    pid: u32,
) -> Result<HttpPhaseResult, Error> {
    let n = sessions.len();
    let fill = filler(spec.payload);
    let start_line = Barrier::new(n);
    let cpu_before = proc_cpu_us(pid);
    let own_before = proc_cpu_us(std::process::id());
    let tallies: Vec<Result<Tally, Error>> = std::thread::scope(|scope| {
        let handles: Vec<_> = sessions
            .iter_mut()
            .enumerate()
            .map(|(t, s)| {
                let (fill, start_line) = (&fill, &start_line);
                scope.spawn(move || session_calls(s, (t, n), spec, base, plan, fill, start_line))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("session thread panicked".into()))
            })
            .collect()
    });
    let cpu_after = proc_cpu_us(pid);
    let own_after = proc_cpu_us(std::process::id());
    let mut all = Tally::default();
    for t in tallies {
        let t = t?;
        all.lat_ns.extend_from_slice(&t.lat_ns);
        all.sent += t.sent;
        all.errors += t.errors;
        all.verified += t.verified;
        all.mismatched += t.mismatched;
        all.json += t.json;
        all.sse += t.sse;
        all.first = match (all.first, t.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        all.last = all.last.max(t.last);
    }
    let received = all.lat_ns.len();
    all.lat_ns.sort_unstable();
    let elapsed_s = match (all.first, all.last) {
        (Some(a), Some(b)) => (b - a).as_secs_f64(),
        _ => 0.0,
    };
    let per_req = |before: Option<u64>, after: Option<u64>| match (before, after) {
        (Some(a), Some(b)) if received > 0 => b.saturating_sub(a) as f64 / received as f64,
        _ => f64::NAN,
    };
    Ok(HttpPhaseResult {
        sessions: n,
        payload: spec.payload,
        sent: all.sent,
        received,
        errors: all.errors,
        verified: all.verified,
        mismatched: all.mismatched,
        json_bodies: all.json,
        sse_bodies: all.sse,
        elapsed_s,
        throughput: if elapsed_s > 0.0 {
            received as f64 / elapsed_s
        } else {
            0.0
        },
        p50_us: percentile_us(&all.lat_ns, 0.50),
        p99_us: percentile_us(&all.lat_ns, 0.99),
        max_us: all.lat_ns.last().map_or(f64::NAN, |&x| x as f64 / 1e3),
        server_cpu_us_per_req: per_req(cpu_before, cpu_after),
        driver_cpu_us_per_req: per_req(own_before, own_after),
    })
}

/// Sessions opened before the baseline is read, so one-time allocations (lazy statics, the
/// session table's first growth, thread-local caches) are not charged to the measured sessions.
const IDLE_WARMUP_SESSIONS: usize = 64;
/// Connections the idle sessions are opened over, round-robin (sessions outlive requests, not
/// connections, so this keeps per-connection buffers out of the per-session figure).
const IDLE_CONNECTIONS: usize = 4;

fn idle_memory(target: &HttpTarget, plan: &HttpPlan) -> Result<Vec<IdleMemory>, Error> {
    let server = ServerProcess::spawn(&target.program, &target.args)?;
    let pid = server.pid();
    let mut opener = SessionOpener::new(server.addr, plan.io_timeout);
    opener.open(IDLE_WARMUP_SESSIONS)?;
    let base = settled_rss_kib(pid)?;
    let mut out = Vec::new();
    for &k in &plan.idle_sessions {
        opener.open(k.saturating_sub(opener.opened - IDLE_WARMUP_SESSIONS))?;
        let rss = settled_rss_kib(pid)?;
        let growth = rss.saturating_sub(base);
        out.push(IdleMemory {
            sessions: k,
            rss_growth_kib: growth,
            bytes_per_session: growth as f64 * 1024.0 / k.max(1) as f64,
        });
    }
    server.stop()?;
    Ok(out)
}

/// Opens legacy sessions (initialize + initialized) round-robin over a few connections and leaves
/// them idle: the connections stay open, the sessions get no GET stream.
struct SessionOpener {
    addr: SocketAddr,
    timeout: Duration,
    conns: Vec<McpSession>,
    opened: usize,
}

impl SessionOpener {
    fn new(addr: SocketAddr, timeout: Duration) -> SessionOpener {
        SessionOpener {
            addr,
            timeout,
            conns: Vec::new(),
            opened: 0,
        }
    }

    fn open(&mut self, count: usize) -> Result<(), Error> {
        for _ in 0..count {
            let slot = self.opened % IDLE_CONNECTIONS;
            if slot == self.conns.len() {
                self.conns
                    .push(McpSession::open(self.addr, Mode::Legacy, self.timeout)?);
            } else {
                self.conns[slot].reinitialize()?;
            }
            self.opened += 1;
        }
        Ok(())
    }
}

/// VmRSS once the server has had a moment to finish any deferred work (spawned session tasks).
fn settled_rss_kib(pid: u32) -> Result<u64, Error> {
    std::thread::sleep(Duration::from_millis(300));
    proc_status_kib(pid, "VmRSS:").ok_or_else(|| "cannot read VmRSS".into())
}
