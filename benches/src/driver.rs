//! The benchmark driver: a neutral raw JSON-RPC client over a child's stdin/stdout.
//!
//! One writer thread keeps exactly `in_flight` requests outstanding (it waits for a credit per
//! response), one reader thread matches responses to send times by id. Both use blocking pipes and
//! reuse their buffers, so the driver costs the same for every server it drives.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The legacy revision used for the `initialize` handshake.
pub const LEGACY_VERSION: &str = "2025-11-25";
/// The modern revision named in every request's `_meta`.
pub const MODERN_VERSION: &str = "2026-07-28";
/// Id of the request that closes a phase; its response tells the reader nothing more is coming.
const SENTINEL_ID: &str = "end";

/// How the driver talks to a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `initialize` + `notifications/initialized`, then plain requests.
    Legacy,
    /// No handshake; the protocol version and capabilities ride in each request's `_meta`.
    Modern,
}

/// A server command to benchmark.
#[derive(Clone, Debug)]
pub struct Target {
    /// Row label in the report.
    pub label: String,
    /// Which implementation this is (`libmcp` or `rmcp`), for ratios.
    pub implementation: String,
    /// The protocol era spoken.
    pub mode: Mode,
    /// The server executable.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// One measured combination of concurrency and payload size.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PhaseSpec {
    /// Requests kept outstanding.
    pub in_flight: usize,
    /// Length of the `text` argument in bytes.
    pub payload: usize,
    /// Requests to send (fewer if the time limit is hit first).
    pub requests: usize,
}

/// What to run against each target.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Measured phases, in order, on one connection.
    pub phases: Vec<PhaseSpec>,
    /// Unmeasured phases run first.
    pub warmup: Vec<PhaseSpec>,
    /// Longest a phase may send for.
    pub phase_time: Duration,
    /// Check the echoed text of every n-th response (1 = all).
    pub verify_every: usize,
}

/// The small and the large `text` of the echo phases, bytes.
pub const SMALL_PAYLOAD: usize = 64;
/// See [`SMALL_PAYLOAD`].
pub const LARGE_PAYLOAD: usize = 64 * 1024;

/// How many echoes of each size a run sends: measured small and large, and the warm-up's small
/// (a tenth of that large).
#[derive(Clone, Copy, Debug)]
pub struct EchoCounts {
    /// Measured calls with the small text.
    pub small: usize,
    /// Measured calls with the large text.
    pub large: usize,
    /// Warm-up calls with the small text.
    pub warm: usize,
}

impl EchoCounts {
    /// The defaults (`--quick` or full), overridden by `--requests` / `--requests-large`.
    pub fn new(quick: bool, small: Option<usize>, large: Option<usize>) -> EchoCounts {
        let s = small.unwrap_or(if quick { 300 } else { 20_000 });
        EchoCounts {
            small: s,
            large: large.unwrap_or(if quick { 30 } else { (s / 10).max(1) }),
            warm: if quick { 50 } else { 2_000 },
        }
    }
}

impl Plan {
    /// The echo benchmark: 1 then 32 in flight, each with the small then the large text, after a
    /// warm-up at 32 in flight.
    pub fn echo(n: EchoCounts, phase_time: Duration, verify_every: usize) -> Plan {
        let mut phases = Vec::new();
        for in_flight in [1, 32] {
            for (payload, requests) in [(SMALL_PAYLOAD, n.small), (LARGE_PAYLOAD, n.large)] {
                phases.push(PhaseSpec {
                    in_flight,
                    payload,
                    requests,
                });
            }
        }
        let warmup = [
            (SMALL_PAYLOAD, n.warm),
            (LARGE_PAYLOAD, (n.warm / 10).max(1)),
        ]
        .map(|(payload, requests)| PhaseSpec {
            in_flight: 32,
            payload,
            requests,
        });
        Plan {
            phases,
            warmup: warmup.to_vec(),
            phase_time,
            verify_every,
        }
    }
}

/// The measurements of one phase.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseResult {
    /// In-flight requests.
    pub in_flight: usize,
    /// Argument size in bytes.
    pub payload: usize,
    /// Requests written.
    pub sent: usize,
    /// Responses read.
    pub received: usize,
    /// Responses that were JSON-RPC errors or tool errors.
    pub errors: usize,
    /// Responses whose echoed text was checked.
    pub verified: usize,
    /// Checked responses whose text differed from what was sent.
    pub mismatched: usize,
    /// From the first send to the last response, seconds.
    pub elapsed_s: f64,
    /// Responses per second.
    pub throughput: f64,
    /// Median latency, microseconds.
    pub p50_us: f64,
    /// 99th percentile latency, microseconds.
    pub p99_us: f64,
    /// Slowest response, microseconds.
    pub max_us: f64,
    /// Server CPU time (user + system) during the phase, microseconds per request.
    pub server_cpu_us_per_req: f64,
}

/// Everything measured against one target.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    /// The target's label.
    pub label: String,
    /// `libmcp` or `rmcp`.
    pub implementation: String,
    /// The era spoken.
    pub mode: Mode,
    /// Resident memory after the handshake, KiB.
    pub rss_start_kib: u64,
    /// Peak resident memory (VmHWM) at the end, KiB.
    pub peak_rss_kib: u64,
    /// The measured phases.
    pub phases: Vec<PhaseResult>,
}

/// The driver's error type.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs the plan against a freshly spawned server and shuts it down.
pub fn run_target(target: &Target, plan: &Plan) -> Result<RunResult, Error> {
    let mut conn = Conn::spawn(target)?;
    let result = conn.run(target, plan);
    let shutdown = conn.shutdown();
    let r = result?;
    shutdown?;
    Ok(r)
}

struct Conn {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    mode: Mode,
    next_id: u64,
}

impl Conn {
    fn spawn(target: &Target) -> Result<Conn, Error> {
        let mut child = Command::new(&target.program)
            .args(&target.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("spawning {}: {e}", target.program.display()))?;
        let stdin = BufWriter::with_capacity(256 * 1024, child.stdin.take().expect("piped"));
        let stdout = BufReader::with_capacity(256 * 1024, child.stdout.take().expect("piped"));
        Ok(Conn {
            child,
            stdin,
            stdout,
            mode: target.mode,
            next_id: 1,
        })
    }

    fn run(&mut self, target: &Target, plan: &Plan) -> Result<RunResult, Error> {
        let pid = self.child.id();
        with_watchdog(pid, Duration::from_secs(20), || self.handshake())?;
        let rss_start_kib = proc_status_kib(pid, "VmRSS:").unwrap_or(0);
        for w in &plan.warmup {
            self.phase(w, plan)?;
        }
        let mut phases = Vec::with_capacity(plan.phases.len());
        for spec in &plan.phases {
            phases.push(self.phase(spec, plan)?);
        }
        let peak_rss_kib = proc_status_kib(pid, "VmHWM:").ok_or("cannot read VmHWM")?;
        Ok(RunResult {
            label: target.label.clone(),
            implementation: target.implementation.clone(),
            mode: target.mode,
            rss_start_kib,
            peak_rss_kib,
            phases,
        })
    }

    fn handshake(&mut self) -> Result<(), Error> {
        if self.mode == Mode::Modern {
            // No handshake in this era; one tools/list checks the server speaks it.
            let reply = self.request(format!(
                r#"{{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{{"_meta":{}}}}}"#,
                modern_meta()
            ))?;
            return check_has_echo_tool(&reply);
        }
        let reply = self.request(format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY_VERSION}","capabilities":{{}},"clientInfo":{{"name":"mcp-bench","version":"{}"}}}}}}"#,
            env!("CARGO_PKG_VERSION")
        ))?;
        let version = reply
            .pointer("/result/protocolVersion")
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| format!("initialize failed: {reply}"))?;
        if !version.starts_with("2025-") {
            return Err(format!("initialize negotiated {version}").into());
        }
        writeln!(
            self.stdin,
            r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#
        )?;
        let reply = self
            .request(r#"{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{}}"#.to_string())?;
        check_has_echo_tool(&reply)
    }

    /// Sends one request with id 0 and returns its response, skipping anything else.
    fn request(&mut self, line: String) -> Result<serde_json::Value, Error> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()?;
        let mut buf = Vec::new();
        loop {
            buf.clear();
            if self.stdout.read_until(b'\n', &mut buf)? == 0 {
                return Err("server closed stdout during the handshake".into());
            }
            let v: serde_json::Value = serde_json::from_slice(&buf)?;
            if v.get("id") == Some(&serde_json::json!(0)) {
                return Ok(v);
            }
        }
    }

    fn phase(&mut self, spec: &PhaseSpec, plan: &Plan) -> Result<PhaseResult, Error> {
        let pid = self.child.id();
        let base = self.next_id;
        self.next_id += spec.requests as u64;
        let grace = plan.phase_time + Duration::from_secs(30);
        let cpu_before = proc_cpu_us(pid);
        let r = with_watchdog(pid, grace, || {
            run_phase(
                &mut self.stdin,
                &mut self.stdout,
                self.mode,
                spec,
                base,
                plan,
            )
        })?;
        let cpu_after = proc_cpu_us(pid);
        let cpu = match (cpu_before, cpu_after) {
            (Some(a), Some(b)) if r.received > 0 => (b - a) as f64 / r.received as f64,
            _ => f64::NAN,
        };
        Ok(PhaseResult {
            server_cpu_us_per_req: cpu,
            ..r
        })
    }

    fn shutdown(mut self) -> Result<(), Error> {
        drop(self.stdin);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait()? {
                // Servers may exit non-zero when stdin closes; only a hang is an error here.
                let _ = status;
                return Ok(());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                return Err("server did not exit within 10 s of stdin closing".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Checks that a `tools/list` response lists the `echo` tool.
pub fn check_has_echo_tool(reply: &serde_json::Value) -> Result<(), Error> {
    let tools = reply
        .pointer("/result/tools")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| format!("tools/list failed: {reply}"))?;
    if tools.iter().any(|t| t["name"] == "echo") {
        Ok(())
    } else {
        Err(format!("no echo tool in {reply}").into())
    }
}

/// The 2026-07-28 request `_meta` the driver sends: protocol version, capabilities, client info.
pub fn modern_meta() -> String {
    format!(
        r#"{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"mcp-bench","version":"{}"}}}}"#,
        env!("CARGO_PKG_VERSION")
    )
}

/// Runs `f`; if it takes longer than `limit`, kills `pid` so blocked pipe reads and writes fail.
fn with_watchdog<T>(pid: u32, limit: Duration, f: impl FnOnce() -> T) -> T {
    let (done_tx, done_rx) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(limit) {
                eprintln!("mcp-bench: server {pid} hung for {limit:?}; killing it");
                // SAFETY: kill(2) has no memory-safety preconditions; `pid` is our child.
                unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            }
        });
        let r = f();
        let _ = done_tx.send(());
        r
    })
}

/// The `text` argument of request `id`: the id, zero-padded, then filler up to `len` bytes. Every
/// request carries a different text so a misrouted response cannot pass verification.
pub fn payload_text(id: u64, len: usize, filler: &[u8]) -> String {
    let mut s = format!("{id:016}");
    s.truncate(len);
    let rest = len - s.len();
    s.push_str(std::str::from_utf8(&filler[..rest]).expect("ascii filler"));
    s
}

/// ASCII filler of at least `len` bytes with nothing that JSON needs to escape.
pub fn filler(len: usize) -> Vec<u8> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    ALPHABET.iter().copied().cycle().take(len).collect()
}

struct Shared {
    sent_at_ns: Vec<AtomicU64>,
    sent: AtomicUsize,
    writer_done: AtomicBool,
}

fn run_phase(
    stdin: &mut BufWriter<ChildStdin>,
    stdout: &mut BufReader<ChildStdout>,
    mode: Mode,
    spec: &PhaseSpec,
    base: u64,
    plan: &Plan,
) -> Result<PhaseResult, Error> {
    let n = spec.requests;
    let shared = Shared {
        sent_at_ns: (0..n).map(|_| AtomicU64::new(0)).collect(),
        sent: AtomicUsize::new(0),
        writer_done: AtomicBool::new(false),
    };
    let fill = filler(spec.payload);
    let (credit_tx, credit_rx) = mpsc::channel::<()>();
    let start = Instant::now();
    let deadline = start + plan.phase_time;
    let meta = match mode {
        Mode::Legacy => String::new(),
        Mode::Modern => format!(r#","_meta":{}"#, modern_meta()),
    };

    let (wr, rd) = std::thread::scope(|s| {
        let shared = &shared;
        let fill = &fill;
        let meta = &meta;
        let writer = s.spawn(move || -> Result<(), Error> {
            let mut credits = spec.in_flight;
            let mut line = Vec::with_capacity(spec.payload + 512);
            'send: for i in 0..n {
                while credits == 0 {
                    match credit_rx.try_recv() {
                        Ok(()) => credits += 1,
                        Err(mpsc::TryRecvError::Empty) => {
                            stdin.flush()?;
                            let left = deadline.saturating_duration_since(Instant::now());
                            match credit_rx.recv_timeout(left + Duration::from_secs(30)) {
                                Ok(()) => credits += 1,
                                Err(_) => break 'send,
                            }
                        }
                        Err(mpsc::TryRecvError::Disconnected) => break 'send,
                    }
                }
                if Instant::now() >= deadline {
                    break;
                }
                let id = base + i as u64;
                line.clear();
                write!(
                    line,
                    r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}}{meta}}}}}"#,
                    payload_text(id, spec.payload, fill)
                )?;
                line.push(b'\n');
                shared.sent_at_ns[i].store(nanos_since(start), Ordering::Relaxed);
                stdin.write_all(&line)?;
                shared.sent.store(i + 1, Ordering::Release);
                credits -= 1;
            }
            shared.writer_done.store(true, Ordering::Release);
            // Answered after (or concurrently with) everything before it; the reader stops once it
            // has this response and one for every request sent.
            let params = match mode {
                Mode::Legacy => "{}".to_string(),
                Mode::Modern => format!(r#"{{"_meta":{}}}"#, modern_meta()),
            };
            writeln!(
                stdin,
                r#"{{"jsonrpc":"2.0","id":"{SENTINEL_ID}","method":"tools/list","params":{params}}}"#
            )?;
            stdin.flush()?;
            Ok(())
        });
        let reader = s.spawn(move || {
            read_responses(stdout, spec, base, start, shared, fill, plan, credit_tx)
        });
        (writer.join(), reader.join())
    });
    wr.map_err(|_| "writer thread panicked")??;
    let mut r = rd.map_err(|_| "reader thread panicked")??;
    r.sent = shared.sent.load(Ordering::Acquire);
    Ok(r)
}

#[derive(Deserialize)]
struct Response<'a> {
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, borrow)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult {
    content: Vec<Content>,
    #[serde(default, rename = "isError")]
    is_error: bool,
}

#[derive(Deserialize)]
struct Content {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
}

#[allow(clippy::too_many_arguments)]
fn read_responses(
    stdout: &mut BufReader<ChildStdout>,
    spec: &PhaseSpec,
    base: u64,
    start: Instant,
    shared: &Shared,
    fill: &[u8],
    plan: &Plan,
    credit_tx: mpsc::Sender<()>,
) -> Result<PhaseResult, Error> {
    let mut lat_ns: Vec<u64> = Vec::with_capacity(spec.requests);
    let mut line = Vec::with_capacity(spec.payload * 2 + 512);
    let (mut errors, mut verified, mut mismatched) = (0, 0, 0);
    let mut sentinel = false;
    let mut last_ns = 0;
    loop {
        if sentinel
            && shared.writer_done.load(Ordering::Acquire)
            && lat_ns.len() == shared.sent.load(Ordering::Acquire)
        {
            break;
        }
        line.clear();
        if stdout.read_until(b'\n', &mut line)? == 0 {
            return Err(format!(
                "server closed stdout after {} of {} responses",
                lat_ns.len(),
                shared.sent.load(Ordering::Acquire)
            )
            .into());
        }
        let now = nanos_since(start);
        let resp: Response = serde_json::from_slice(&line)?;
        let Some(id) = resp.id else { continue };
        let Ok(num) = id.get().parse::<u64>() else {
            if id.get() == format!("\"{SENTINEL_ID}\"") {
                sentinel = true;
            }
            continue;
        };
        let idx = num.checked_sub(base).map(|i| i as usize);
        let Some(idx) = idx.filter(|&i| i < spec.requests) else {
            return Err(format!("response with unexpected id {num}").into());
        };
        lat_ns.push(now - shared.sent_at_ns[idx].load(Ordering::Relaxed));
        last_ns = now;
        let _ = credit_tx.send(());
        match (resp.result, resp.error) {
            (Some(result), None) => {
                if idx % plan.verify_every == 0 {
                    verified += 1;
                    let r: CallResult = serde_json::from_str(result.get())?;
                    let want = payload_text(num, spec.payload, fill);
                    let ok = !r.is_error
                        && r.content.first().is_some_and(|c| {
                            c.kind == "text" && c.text.as_deref() == Some(want.as_str())
                        });
                    if !ok {
                        mismatched += 1;
                    }
                }
            }
            _ => errors += 1,
        }
    }
    let received = lat_ns.len();
    lat_ns.sort_unstable();
    let elapsed_s = last_ns as f64 / 1e9;
    Ok(PhaseResult {
        in_flight: spec.in_flight,
        payload: spec.payload,
        sent: 0,
        received,
        errors,
        verified,
        mismatched,
        elapsed_s,
        throughput: if elapsed_s > 0.0 {
            received as f64 / elapsed_s
        } else {
            0.0
        },
        p50_us: percentile_us(&lat_ns, 0.50),
        p99_us: percentile_us(&lat_ns, 0.99),
        max_us: lat_ns.last().map_or(f64::NAN, |&x| x as f64 / 1e3),
        server_cpu_us_per_req: f64::NAN,
    })
}

fn nanos_since(start: Instant) -> u64 {
    start.elapsed().as_nanos() as u64
}

/// Nearest-rank percentile of sorted nanoseconds, in microseconds.
pub fn percentile_us(sorted_ns: &[u64], p: f64) -> f64 {
    if sorted_ns.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted_ns.len() as f64).ceil() as usize).clamp(1, sorted_ns.len());
    sorted_ns[rank - 1] as f64 / 1e3
}

/// A `Vm*:` line of `/proc/<pid>/status`, in KiB.
pub fn proc_status_kib(pid: u32, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// User + system CPU time of a process so far, in microseconds.
pub fn proc_cpu_us(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may contain spaces; fields resume after its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // Fields 14 and 15 of stat(5) (utime, stime) are at 11 and 12 after the state field.
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(ticks * 1_000_000 / hz)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_text_has_exact_length_and_distinct_prefix() {
        let f = filler(65536);
        assert_eq!(payload_text(7, 64, &f).len(), 64);
        assert_eq!(payload_text(7, 65536, &f).len(), 65536);
        assert_ne!(payload_text(7, 64, &f), payload_text(8, 64, &f));
        assert_eq!(payload_text(7, 8, &f), "00000000");
    }

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<u64> = (1..=100).map(|x| x * 1000).collect();
        assert_eq!(percentile_us(&v, 0.5), 50.0);
        assert_eq!(percentile_us(&v, 0.99), 99.0);
        assert!(percentile_us(&[], 0.5).is_nan());
    }
}
