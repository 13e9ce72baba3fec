using System.Diagnostics;
using System.Globalization;
using System.Text;
using DivCon.Multiprogramming;

namespace DivCon.JobServer;

/// <summary>
/// The three-job scenario's sampler: every millisecond, a program with queued tasks that is served by fewer pool workers
/// than it is assigned (<see cref="ProgramHandle.ServedWorkers"/> &lt; <see cref="ProgramHandle.Allocation"/>) is
/// short. A stretch runs from the first short sample to the moment its owed worker switched when the timeline has it (a
/// move that waited at least <see cref="AllocationTimeline.PendingMoveThreshold"/> on a running task), else to the first
/// sample that is not short but at most one millisecond past the last short one (the sampler's own thread can be late by
/// tens of milliseconds when every processor runs a worker, and a late sample says nothing about when the stretch ended),
/// or to the last sample that saw the program, when it left while short. Samples are about 1.1 ms apart, so a stretch's
/// start is known to one sample.
/// </summary>
/// <remarks>
/// Wall time is not what DivCon controls. The worker owed to a short program (assigned to it and still serving another
/// one, or its home worker lent away: <see cref="MultiProgramSnapshot.WorkerHomes"/>) has to run to reach its next
/// chunk boundary and switch; while it is runnable but the operating system runs another thread on its processor
/// (another process, the runtime's JIT thread, this sampler), its CPU time does not advance and DivCon cannot move it.
/// So, on Linux, at each short sample and at the sample after it the sampler reads each worker thread's CPU time and
/// state (<see cref="MultiProgramSnapshot.WorkerThreadIds"/>, <see cref="ThreadCpuClock"/>); in an interval between two
/// samples in which every owed worker was runnable at both ends, its time off the processor counts as waiting for one.
/// What is left (the owed worker running a task or chunk of another program, parked, or blocked) is DivCon's part,
/// which the target bounds by one chunk (a chunk aims at 1 ms and is halved only past 2 ms: ChunkedLoops' Adapt),
/// counted for at most 2 ms of an interval in which the sampler itself was late (the rest is unseen).
/// Elsewhere only the wall time is reported. The readings cost microseconds per worker, paid only at short samples.
/// </remarks>
internal sealed class ShortOfCoresSampler
{
    // A stretch ends somewhere between its last short sample and the next sample. When the sampler itself was late (its
    // thread waits for a processor too, and every processor runs a worker), that next sample can come tens of
    // milliseconds later, long after the owed worker arrived: the closing interval counts for at most this much, unless
    // the timeline says exactly when the owed worker switched (ClosingMs).
    private const double ClosingCapMs = 1.0;

    // Inside a stretch, an interval far longer than the sampler's period (it was late) may hide the stretch ending and a
    // new one beginning (a lent worker recalled, its home run dry, the worker lent again): such an interval counts on a
    // processor for at most this much; the rest is unseen.
    private const double LateSampleCapMs = 2.0;

    private readonly MultiProgramScheduler _scheduler;
    private readonly CancellationToken _stop;
    private readonly Thread _thread;
    private readonly Dictionary<int, Stretch> _open = [];
    private int[] _threadIds = [];

    private readonly bool _trace;
    private readonly long _origin = Stopwatch.GetTimestamp();

    /// <param name="scheduler">The scheduler sampled.</param>
    /// <param name="stop">Ends the sampling.</param>
    /// <param name="trace">Keep each stretch's samples (workers' assignment, home, serving, thread state and CPU time), to
    /// print those of the longest ones (<see cref="Result.Samples"/>).</param>
    public ShortOfCoresSampler(MultiProgramScheduler scheduler, CancellationToken stop, bool trace = false)
    {
        _scheduler = scheduler;
        _stop = stop;
        _trace = trace;
        _thread = new Thread(Run) { IsBackground = true, Name = "short-of-cores sampler" };
    }

    /// <summary>The longest stretch in wall time.</summary>
    public Result LongestWall { get; private set; } = Result.None;

    /// <summary>The longest stretch without the time its owed worker waited for a processor (null: not measured here).</summary>
    public Result? LongestOnCpu { get; private set; }

    /// <summary>The longest time between two samples (the sampler's own thread waits for a processor too).</summary>
    public double LongestGapMs { get; private set; }

    /// <summary>True when worker threads' CPU time could be read (Linux, thread ids known).</summary>
    public bool MeasuresCpu => _threadIds.Length > 0;

    public void Start()
    {
        IReadOnlyList<int> ids = _scheduler.GetSnapshot().WorkerThreadIds;
        if (OperatingSystem.IsLinux() && ids.Count > 0 && ids.All(id => id > 0) && ReadThread(ids[0]) is not null)
        {
            _threadIds = [.. ids];
            LongestOnCpu = Result.None;
        }

        _thread.Start();
    }

    public void Join() => _thread.Join();

    private void Run()
    {
        long previous = Stopwatch.GetTimestamp();
        Reading[]? previousReading = null;
        var present = new HashSet<int>();
        while (!_stop.IsCancellationRequested)
        {
            long now = Stopwatch.GetTimestamp();
            LongestGapMs = Math.Max(LongestGapMs, Stopwatch.GetElapsedTime(previous, now).TotalMilliseconds);
            bool anyShort = false;
            present.Clear();
            foreach (ProgramHandle p in _scheduler.Programs)
            {
                present.Add(p.Id);
                anyShort |= p.AvailableTasks > 0 && p.ServedWorkers < p.Allocation;
            }

            // Worker threads read at a short sample and at the one after it (which closes the interval it opened).
            Reading[]? reading = MeasuresCpu && (anyShort || _open.Count > 0) ? ReadWorkers() : null;
            MultiProgramSnapshot? snapshot = anyShort ? _scheduler.GetSnapshot() : null;

            // The interval since the previous sample: charged to every stretch still open.
            foreach ((int id, Stretch stretch) in _open)
            {
                double ms = Stopwatch.GetElapsedTime(previous, now).TotalMilliseconds;
                stretch.Add(ms, WaitedForCpuMs(stretch.Owed, previousReading, reading, ms));
            }

            foreach (ProgramHandle p in _scheduler.Programs)
            {
                bool isShort = snapshot is not null
                    && snapshot.AvailableTasksByProgram.GetValueOrDefault(p.Id) > 0
                    && snapshot.ServedByProgram.GetValueOrDefault(p.Id) < snapshot.CoresByProgram.GetValueOrDefault(p.Id);
                if (isShort)
                {
                    if (_open.TryGetValue(p.Id, out Stretch? stretch) && stretch.WasReassigned(snapshot!))
                    {
                        // Short at both samples, but not for one assignment: the policy took the worker away and gave
                        // it (or another) back in between. The earlier stretch ended then, within the interval.
                        stretch.UndoLast();
                        _open.Remove(p.Id);
                        Close(stretch);
                        stretch = null;
                    }

                    if (stretch is null)
                    {
                        stretch = new Stretch(p.Id, p.Name);
                        _open.Add(p.Id, stretch);
                    }

                    stretch.Observe(snapshot!);
                    if (_trace)
                    {
                        stretch.Trace(Describe(now, snapshot!, previousReading, reading));
                    }
                }
                else if (_open.Remove(p.Id, out Stretch? ended))
                {
                    if (_trace)
                    {
                        ended.Trace(Describe(now, _scheduler.GetSnapshot(), previousReading, reading) + " (not short)");
                    }

                    ended.EndWithin(ClosingMs(p.Id, previous, now));
                    Close(ended);
                }
            }

            // A program that left while short: its stretch ended when it was last seen (the interval just charged is
            // taken back: it was not short then as far as anyone saw).
            foreach (int gone in _open.Keys.Where(id => !present.Contains(id)).ToArray())
            {
                _open.Remove(gone, out Stretch? left);
                left!.UndoLast();
                Close(left);
            }

            previous = now;
            previousReading = reading;
            Thread.Sleep(1);
        }

        foreach (Stretch stretch in _open.Values)
        {
            Close(stretch);
        }
    }

    // How much of the closing interval (previous sample to now) the stretch lasted: exactly, when the owed worker's move
    // waited on a running task for at least AllocationTimeline.PendingMoveThreshold and so is on the timeline with the
    // time it switched; else at most ClosingCapMs.
    private double ClosingMs(int programId, long previous, long now)
    {
        long? switched = null;
        foreach (PendingMoveEnded move in _scheduler.Timeline.GetPendingMoves())
        {
            if (move.ToProgramId == programId && move.Timestamp > previous && move.Timestamp <= now)
            {
                switched = Math.Max(switched ?? 0, move.Timestamp);
            }
        }

        return switched is long at ? Stopwatch.GetElapsedTime(previous, at).TotalMilliseconds : ClosingCapMs;
    }

    // One traced sample: ms since the sampler started; per worker: assigned / home / serving program ids, whether it is
    // in a task of a program other than its assignment (a move pending), its thread's state (R: runnable) and the CPU
    // time it gained since the previous sample.
    private string Describe(long now, MultiProgramSnapshot s, Reading[]? before, Reading[]? after)
    {
        var line = new StringBuilder();
        line.Append(FormattableString.Invariant($"  {Stopwatch.GetElapsedTime(_origin, now).TotalMilliseconds,9:F2} ms |"));
        for (int w = 0; w < s.WorkerPrograms.Count; w++)
        {
            string Id(int? id) => id?.ToString(CultureInfo.InvariantCulture) ?? "-";
            bool pending = s.PendingMoves.Any(m => m.Worker == w);
            line.Append(FormattableString.Invariant($" w{w} assigned {Id(s.WorkerPrograms[w])} home {Id(w < s.WorkerHomes.Count ? s.WorkerHomes[w] : null)} serving {Id(s.WorkerServing[w])}{(pending ? " in a task" : "")}"));
            if (before is not null && after is not null)
            {
                line.Append(FormattableString.Invariant($" {(after[w].Runnable ? "R" : "S")} +{(after[w].CpuNs - before[w].CpuNs) / 1000} us cpu"));
            }

            line.Append(';');
        }

        return line.ToString();
    }

    private void Close(Stretch stretch)
    {
        if (stretch.WallMs > LongestWall.WallMs)
        {
            LongestWall = stretch.ToResult();
        }

        if (LongestOnCpu is { } onCpu && stretch.OnCpuMs > onCpu.OnCpuMs)
        {
            LongestOnCpu = stretch.ToResult();
        }
    }

    // An interval in which every owed worker was runnable at both ends: its time off the processor (interval - CPU time
    // gained) is a wait for a processor; the least of these over the owed workers (one that was on a processor, parked or
    // blocked makes the interval DivCon's). 0 when not measured.
    private static double WaitedForCpuMs(int[] owed, Reading[]? before, Reading[]? after, double intervalMs)
    {
        if (before is null || after is null || owed.Length == 0)
        {
            return 0;
        }

        double least = double.MaxValue;
        foreach (int slot in owed)
        {
            Reading a = before[slot], b = after[slot];
            double offCpu = a.Runnable && b.Runnable ? Math.Max(0, intervalMs - ((b.CpuNs - a.CpuNs) / 1e6)) : 0;
            least = Math.Min(least, offCpu);
        }

        return least;
    }

    private Reading[] ReadWorkers()
    {
        var readings = new Reading[_threadIds.Length];
        for (int slot = 0; slot < readings.Length; slot++)
        {
            readings[slot] = ReadThread(_threadIds[slot]) ?? new Reading(0, false);
        }

        return readings;
    }

    private static Reading? ReadThread(int tid)
    {
        if (!OperatingSystem.IsLinux())
        {
            return null;
        }

        // The state first: a thread seen runnable and then its CPU time (a sleeping thread's does not advance either).
        bool? runnable = ThreadCpuClock.IsRunnable(tid);
        long? cpuNs = ThreadCpuClock.CpuNs(tid);
        return runnable is { } r && cpuNs is { } ns ? new Reading(ns, r) : null;
    }

    private readonly record struct Reading(long CpuNs, bool Runnable);

    /// <summary>A stretch: who, how long in wall time, how much of it the owed worker was on a processor, and why.</summary>
    /// <param name="Program">The short program: its name and id.</param>
    /// <param name="WallMs">Its length between samples.</param>
    /// <param name="OnCpuMs">The same without the time its owed worker waited for a processor, and without what a late
    /// sampler did not see (the wall time when not measured).</param>
    /// <param name="WaitMs">The time its owed worker was runnable but off its processor (0 when not measured).</param>
    /// <param name="Cause">What its owed worker was doing at most of its samples.</param>
    /// <param name="Samples">With tracing on, one line per sample of the stretch (and the one that ended it).</param>
    public sealed record Result(string? Program, double WallMs, double OnCpuMs, double WaitMs, string Cause, IReadOnlyList<string> Samples)
    {
        public static readonly Result None = new(null, 0, 0, 0, "-", []);

        /// <summary>What a late sampler did not see: neither waiting nor counted on a processor.</summary>
        public double UnseenMs => Math.Max(0, WallMs - OnCpuMs - WaitMs);
    }

    private sealed class Stretch(int programId, string programName)
    {
        private double _lastMs;
        private double _lastWaitMs;
        private double _lastOnCpuMs;
        private int _pending;
        private int _betweenTasks;
        private int _lent;
        private List<string>? _samples;

        public double WallMs { get; private set; }

        /// <summary>The part its owed worker was runnable but off its processor.</summary>
        public double WaitMs { get; private set; }

        /// <summary>The rest, but at most <see cref="LateSampleCapMs"/> of an interval in which the sampler was late.</summary>
        public double OnCpuMs { get; private set; }

        /// <summary>The owed workers at the last sample (slots).</summary>
        public int[] Owed { get; private set; } = [];

        // At the last sample: the program each owed worker served, and the sample's time (snapshot ticks).
        private int?[] _owedServing = [];
        private long _lastSeen;

        /// <summary>
        /// True when the program is short again at <paramref name="s"/> but under a newer assignment than at the last
        /// sample: an owed worker has switched in between (it reached a task boundary and went where it was assigned
        /// then), or the move waiting on a running task is younger than the stretch (the worker was given to another
        /// program and back while it ran: demand-driven decisions can alternate a core between two programs).
        /// </summary>
        public bool WasReassigned(MultiProgramSnapshot s)
        {
            for (int i = 0; i < Owed.Length; i++)
            {
                if (s.WorkerServing[Owed[i]] != _owedServing[i])
                {
                    return true;
                }
            }

            TimeSpan? oldest = s.PendingMoves.Where(m => m.ToProgramId == programId).Select(m => (TimeSpan?)m.Age).Max();
            return oldest is { } age && age < Stopwatch.GetElapsedTime(_lastSeen, s.Timestamp); // decided after the last sample
        }

        public void Trace(string sample) => (_samples ??= []).Add(sample);

        public void Add(double ms, double waitMs)
        {
            _lastMs = ms;
            _lastWaitMs = waitMs;
            _lastOnCpuMs = Math.Min(ms - waitMs, LateSampleCapMs);
            WallMs += _lastMs;
            WaitMs += _lastWaitMs;
            OnCpuMs += _lastOnCpuMs;
        }

        /// <summary>The stretch ended <paramref name="closingMs"/> into the last interval charged (at most all of it).</summary>
        public void EndWithin(double closingMs)
        {
            double wall = Math.Min(_lastMs, closingMs);
            double onCpu = Math.Min(_lastOnCpuMs, wall);
            double wait = Math.Min(_lastWaitMs, wall - onCpu);
            UndoLast();
            _lastMs = wall;
            _lastWaitMs = wait;
            _lastOnCpuMs = onCpu;
            WallMs += wall;
            WaitMs += wait;
            OnCpuMs += onCpu;
        }

        public void UndoLast()
        {
            WallMs -= _lastMs;
            WaitMs -= _lastWaitMs;
            OnCpuMs -= _lastOnCpuMs;
            _lastMs = _lastWaitMs = _lastOnCpuMs = 0;
        }

        // Owed: workers assigned to the program that still serve another (a move not yet made: inside a task of the other
        // program, or between two tasks on their way); else its home workers lent to another program (a recall pending).
        public void Observe(MultiProgramSnapshot s)
        {
            _lastSeen = s.Timestamp;
            int[] moving = [.. Enumerable.Range(0, s.WorkerPrograms.Count).Where(w => s.WorkerPrograms[w] == programId && s.WorkerServing[w] != programId)];
            if (moving.Length > 0)
            {
                Owed = moving;
                if (s.PendingMoves.Any(m => m.ToProgramId == programId))
                {
                    _pending++;
                }
                else
                {
                    _betweenTasks++;
                }
            }
            else
            {
                Owed = [.. Enumerable.Range(0, s.WorkerHomes.Count).Where(w => s.WorkerHomes[w] == programId && s.WorkerServing[w] != programId)];
                _lent++;
            }

            _owedServing = [.. Owed.Select(w => s.WorkerServing[w])];
        }

        public Result ToResult()
        {
            string cause = _pending >= _betweenTasks && _pending >= _lent ? "a move waiting on a running task"
                : _betweenTasks >= _lent ? "the owed worker between tasks (not yet switched)"
                : "its worker lent away, recall pending";
            return new Result($"{programName} ({programId})", WallMs, OnCpuMs, WaitMs, cause, _samples?.ToArray() ?? []);
        }
    }
}
