using System.Collections.Concurrent;
using System.Text;
using DivCon.Scheduling;

namespace DivCon.Tests.Exploration;

/// <summary>How the explorer picks the next thread at a yield point.</summary>
public enum ExplorationStrategy
{
    /// <summary>
    /// Random walk with stickiness: the running thread goes on with probability 0.9, otherwise a runnable thread is
    /// drawn uniformly. Long runs let a preempted thread's rivals finish whole protocol steps in between.
    /// </summary>
    StickyRandom,

    /// <summary>
    /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): random distinct priorities, the highest
    /// runnable runs, and at a few random steps the running thread drops below all others. A thread that polls
    /// (ScheduleHook.Spin) drops too, so a polling loop cannot starve the others.
    /// </summary>
    Pct,

    /// <summary>
    /// Random walk that switches threads mostly at the wake / park / search points (the protocol's Dekker pairs and
    /// its wake token), rarely elsewhere: each schedule draws its switch probabilities from the seed. Bugs that need a
    /// few preemptions at exact protocol steps (a lost wake-up) are far likelier than under a uniform walk.
    /// </summary>
    Focused,
}

/// <summary>
/// A deterministic schedule explorer for the pool's protocol (src/DivCon/Scheduling/ScheduleHook.cs): the threads it
/// controls (the scenario's threads, and every thread they start through the pool: workers) run one at a time, and at
/// each named yield point the explorer picks which runs next from a seeded strategy, so a schedule is replayed
/// exactly from its seed. A thread that would block tells the explorer what it waits for; when no controlled thread
/// can run and some have not finished, the schedule deadlocked (a lost wake-up shows up exactly so) and the
/// exploration fails with the seed. Every wait is bounded: a schedule longer than its step budget fails as a livelock,
/// and a controlled thread that does not come back to a yield point (blocked outside the explorer) fails it too.
/// </summary>
/// <remarks>
/// Controlled threads never run concurrently, so the explorer explores sequentially consistent interleavings of the
/// yield points; the memory-model side (which fence pairs with which) is argued in the protocol headers, not here.
/// </remarks>
internal sealed class ScheduleExplorer : IScheduleExplorer, IDisposable
{
    private static readonly TimeSpan TurnTimeout = TimeSpan.FromSeconds(30);

    [ThreadStatic]
    private static Participant? t_me;

    [ThreadStatic]
    private static ScheduleExplorer? t_owner;

    private readonly object _gate = new();
    private readonly List<Participant> _all = [];
    private readonly ConcurrentDictionary<Thread, Participant> _byThread = new();
    private readonly Random _random;
    private readonly ExplorationStrategy _strategy;
    private readonly int _maxSteps;
    private readonly HashSet<int> _changePoints = [];
    private readonly Queue<string> _trace = new();
    private readonly Dictionary<string, int> _visits = [];
    private readonly ManualResetEventSlim _finished = new(false);
    private readonly double _hotSwitch;
    private readonly double _coldSwitch;
    private Participant? _running;
    private int _steps;
    private int _lowPriority;
    private volatile bool _abandoned;
    private string? _failure;

    public ScheduleExplorer(int seed, ExplorationStrategy strategy, int maxSteps = 200_000, int pctDepth = 3, int pctSteps = 3000)
    {
        Seed = seed;
        _random = new Random(seed);
        _strategy = strategy;
        _maxSteps = maxSteps;
        for (int i = 0; i < pctDepth - 1; i++)
        {
            _changePoints.Add(_random.Next(1, pctSteps));
        }

        _hotSwitch = 0.2 + (0.6 * _random.NextDouble());
        _coldSwitch = 0.002 + (0.05 * _random.NextDouble());
    }

    // The points where Focused switches threads often: the wake / park / search protocol itself, and work
    // conservation's recall and demand marks (not the lender's read of the snapshot, which every idle worker passes).
    private static bool IsHot(string? point)
        => point is not null && (point.StartsWith("signal.", StringComparison.Ordinal) || point.StartsWith("wake", StringComparison.Ordinal)
            || point.StartsWith("trywake.", StringComparison.Ordinal) || point.StartsWith("unpark.", StringComparison.Ordinal)
            || point.StartsWith("park.", StringComparison.Ordinal) || point.StartsWith("search.", StringComparison.Ordinal)
            || point.StartsWith("assign.", StringComparison.Ordinal) || point.StartsWith("self-assign.", StringComparison.Ordinal)
            || point.StartsWith("demand.", StringComparison.Ordinal) || point.StartsWith("recall.", StringComparison.Ordinal)
            || point.StartsWith("dormant.", StringComparison.Ordinal));

    public int Seed { get; }

    /// <summary>Yield points passed in this schedule.</summary>
    public int Steps => _steps;

    /// <summary>Why the schedule failed (deadlock, livelock, a thread stuck outside the explorer, an exception); null if it did not.</summary>
    public string? Failure => _failure;

    /// <summary>
    /// Runs <paramref name="scenario"/>'s actions, each on its own controlled thread, under this explorer until every
    /// controlled thread has finished or the schedule failed (at most <paramref name="timeout"/> of real time).
    /// </summary>
    public void Run(IReadOnlyList<(string Name, Action Action)> scenario, TimeSpan timeout)
    {
        ScheduleHook.Explorer = this;
        try
        {
            var threads = new List<Thread>();
            lock (_gate)
            {
                foreach ((string name, Action action) in scenario)
                {
                    var thread = new Thread(() => ScenarioThread(action)) { IsBackground = true, Name = "explorer " + name };
                    Register(thread, name).IsScenario = true;
                    threads.Add(thread);
                }
            }

            foreach (Thread thread in threads)
            {
                thread.Start();
            }

            lock (_gate)
            {
                Step(null);
            }

            if (!_finished.Wait(timeout))
            {
                Fail($"the schedule did not finish within {timeout.TotalSeconds} s of real time");
            }
        }
        finally
        {
            ScheduleHook.Explorer = null;
        }
    }

    /// <summary>
    /// An explored test's failure message: the schedule, what failed, and the command that replays it (the class's
    /// <paramref name="replayTest"/>, with DIVCON_EXPLORE_SCENARIO=<paramref name="scenario"/> when the class has several).
    /// </summary>
    public static string FailureWithReplay(int seed, ExplorationStrategy strategy, string? failure, string replayTest, string? scenario = null)
        => $"schedule {seed} ({strategy}) failed: {failure}\nReplay it: DIVCON_EXPLORE_SEED={seed} DIVCON_EXPLORE_STRATEGY={strategy}"
            + (scenario is null ? string.Empty : $" DIVCON_EXPLORE_SCENARIO={scenario}")
            + $" dotnet test tests/DivCon.Tests --filter FullyQualifiedName~{replayTest}";

    /// <summary>A replay test's schedule: DIVCON_EXPLORE_SEED (required) and DIVCON_EXPLORE_STRATEGY (default Pct).</summary>
    public static (int Seed, ExplorationStrategy Strategy) ReplayFromEnvironment()
        => (int.Parse(Environment.GetEnvironmentVariable("DIVCON_EXPLORE_SEED")!, System.Globalization.CultureInfo.InvariantCulture),
            Enum.Parse<ExplorationStrategy>(Environment.GetEnvironmentVariable("DIVCON_EXPLORE_STRATEGY") ?? nameof(ExplorationStrategy.Pct)));

    /// <summary>Scenario threads: blocks (under the explorer) until <paramref name="condition"/> holds.</summary>
    public static void WaitUntil(Func<bool> condition, string what)
    {
        if (ScheduleHook.Explorer is ScheduleExplorer explorer && explorer.Me() is not null)
        {
            explorer.BlockUntil(condition, "scenario." + what);
        }

        if (!condition())
        {
            throw new InvalidOperationException($"the scenario waited for {what} outside a running exploration");
        }
    }

    public void Yield(string point)
    {
        Participant? me = Me();
        if (me is null)
        {
            return;
        }

        WaitForTurn(me, () =>
        {
            me.State = ParticipantState.Ready;
            me.Point = point;
        });
    }

    public void BlockUntil(Func<bool> ready, string point)
    {
        Participant? me = Me();
        if (me is null)
        {
            return;
        }

        WaitForTurn(me, () =>
        {
            me.State = ParticipantState.Blocked;
            me.Ready = ready;
            me.Point = point;
        });
    }

    public bool TimedWait(Func<bool> isSet, bool canTimeOut, string point)
    {
        Participant? me = Me();
        if (me is null)
        {
            return false;
        }

        WaitForTurn(me, () =>
        {
            me.Point = point;
            if (canTimeOut)
            {
                // The timeout may fire at any step: runnable now, and picked before the signal is set, the wait timed
                // out. Under PCT it drops below everyone, as a poller does (a thread that keeps timing out is one).
                me.State = ParticipantState.Ready;
                if (_strategy == ExplorationStrategy.Pct)
                {
                    me.Priority = --_lowPriority;
                }
            }
            else
            {
                me.State = ParticipantState.Blocked;
                me.Ready = isSet;
            }
        });
        return !_abandoned;
    }

    public bool Spin(string point)
    {
        Participant? me = Me();
        if (me is null)
        {
            return false;
        }

        WaitForTurn(me, () =>
        {
            me.State = ParticipantState.Ready;
            me.Point = point;
            if (_strategy == ExplorationStrategy.Pct)
            {
                me.Priority = --_lowPriority; // a poller goes below everyone (see the strategy)
            }
        });
        return true;
    }

    public void Starting(Thread thread)
    {
        Participant? me = Me();
        if (me is null)
        {
            return;
        }

        lock (_gate)
        {
            Register(thread, thread.Name ?? "thread");
        }
    }

    public void Exiting()
    {
        Participant? me = Me();
        if (me is null)
        {
            return;
        }

        lock (_gate)
        {
            if (_abandoned)
            {
                return;
            }

            me.State = ParticipantState.Done;
            Record(me, "exit");
            Step(me);
        }
    }

    public int Choose(int n)
    {
        lock (_gate)
        {
            return _random.Next(n);
        }
    }

    /// <summary>Ends the exploration: every controlled thread runs freely from now on.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            Abandon();
        }
    }

    private void ScenarioThread(Action action)
    {
        try
        {
            Yield("scenario.start");
            action();
        }
        catch (Exception ex)
        {
            Fail($"a scenario thread threw {ex.GetType().Name}: {ex.Message}");
        }
        finally
        {
            Exiting();
        }
    }

    private Participant? Me()
    {
        if (_abandoned)
        {
            return null;
        }

        if (!ReferenceEquals(t_owner, this))
        {
            t_owner = this;
            t_me = _byThread.TryGetValue(Thread.CurrentThread, out Participant? p) ? p : null;
        }

        return t_me;
    }

    private Participant Register(Thread thread, string name)
    {
        var p = new Participant(thread, $"{name}#{_all.Count}") { Priority = _random.Next(1000, 1_000_000) };
        _all.Add(p);
        _byThread[thread] = p;
        return p;
    }

    // The heart: under the gate, update my state, pick the next thread, hand it the turn; then wait for mine.
    private void WaitForTurn(Participant me, Action update)
    {
        if (!me.Arrived)
        {
            // First contact of a thread the explorer was told about: wait until it is picked.
            me.Arrived = true;
            Await(me);
            if (_abandoned)
            {
                return;
            }
        }

        lock (_gate)
        {
            if (_abandoned)
            {
                return;
            }

            update();
            Record(me, me.Point);
            Step(me);
        }

        Await(me);
    }

    private void Await(Participant me)
    {
        if (!me.Turn.Wait(TurnTimeout) && !_abandoned)
        {
            Participant? running = _running;
            Fail($"{running?.Name ?? "no thread"} did not come back to a yield point for {TurnTimeout.TotalSeconds} s after '{running?.Point}' (blocked outside the explorer?)");
        }
    }

    private void Step(Participant? yielding)
    {
        _steps++;
        if (_steps > _maxSteps)
        {
            FailNeedsGate($"livelock or a too long schedule: more than {_maxSteps} steps; " + string.Join(", ", _all.Where(p => p.State != ParticipantState.Done).Select(p => $"{p.Name} {p.State} at {p.Point}")));
            return;
        }

        if (_strategy == ExplorationStrategy.Pct && yielding is not null && _changePoints.Contains(_steps))
        {
            yielding.Priority = --_lowPriority;
        }

        var runnable = new List<Participant>();
        foreach (Participant p in _all)
        {
            if (p.State is ParticipantState.Ready || (p.State is ParticipantState.Blocked && p.Ready!()))
            {
                runnable.Add(p);
            }
        }

        if (runnable.Count == 0)
        {
            // The scenario's threads all done: the schedule is over (the pool's workers may stay parked, idle).
            if (_all.All(p => p.State == ParticipantState.Done || !p.IsScenario))
            {
                _finished.Set();
                return;
            }

            FailNeedsGate("deadlock: no controlled thread can run; " + string.Join(", ", _all.Where(p => p.State != ParticipantState.Done).Select(p => $"{p.Name} waits at {p.Point}")));
            return;
        }

        Participant next = Pick(runnable, yielding);
        next.State = ParticipantState.Running;
        next.Ready = null;
        _running = next;
        next.Turn.Release();
    }

    private Participant Pick(List<Participant> runnable, Participant? yielding)
    {
        if (_strategy == ExplorationStrategy.Pct)
        {
            return runnable.MaxBy(p => p.Priority)!;
        }

        if (_strategy == ExplorationStrategy.Focused)
        {
            if (yielding is not null && runnable.Contains(yielding))
            {
                double change = IsHot(yielding.Point) ? _hotSwitch : _coldSwitch;
                if (runnable.Count == 1 || _random.NextDouble() >= change)
                {
                    return yielding;
                }

                runnable.Remove(yielding); // a switch goes to another thread
            }

            return runnable[_random.Next(runnable.Count)];
        }

        if (yielding is not null && runnable.Contains(yielding) && _random.NextDouble() < 0.9)
        {
            return yielding;
        }

        return runnable[_random.Next(runnable.Count)];
    }

    /// <summary>
    /// Whether <paramref name="thread"/> is blocked (BlockUntil, or a TimedWait without a timeout) at <paramref name="point"/>:
    /// for a scenario's WaitUntil condition, which the explorer evaluates under its gate.
    /// </summary>
    public bool IsBlockedAt(Thread thread, string point)
    {
        lock (_gate)
        {
            return _byThread.TryGetValue(thread, out Participant? p) && p.State == ParticipantState.Blocked && p.Point == point;
        }
    }

    /// <summary>How many times controlled threads passed <paramref name="point"/> in this schedule (coverage checks).</summary>
    public int Visits(string point)
    {
        lock (_gate)
        {
            return _visits.TryGetValue(point, out int n) ? n : 0;
        }
    }

    private void Record(Participant p, string? point)
    {
        if (point is not null)
        {
            _visits[point] = (_visits.TryGetValue(point, out int n) ? n : 0) + 1;
        }

        _trace.Enqueue($"{_steps}: {p.Name} {point}");
        if (_trace.Count > 60)
        {
            _trace.Dequeue();
        }
    }

    private void Fail(string why)
    {
        lock (_gate)
        {
            FailNeedsGate(why);
        }
    }

    private void FailNeedsGate(string why)
    {
        if (_failure is null && !_abandoned)
        {
            _failure = $"{why} (after {_steps} steps). Last steps: " + string.Join(" | ", _trace);
        }

        Abandon();
        _finished.Set();
    }

    private void Abandon()
    {
        if (_abandoned)
        {
            return;
        }

        _abandoned = true;
        foreach (Participant p in _all)
        {
            p.Turn.Release(1000);
        }
    }

    private enum ParticipantState
    {
        Ready,
        Running,
        Blocked,
        Done,
    }

    private sealed class Participant(Thread thread, string name)
    {
        public Thread Thread { get; } = thread;

        public string Name { get; } = name;

        public ParticipantState State { get; set; } = ParticipantState.Ready;

        public Func<bool>? Ready { get; set; }

        public string? Point { get; set; } = "not started";

        public int Priority { get; set; }

        public bool Arrived { get; set; }

        public bool IsScenario { get; set; }

        public SemaphoreSlim Turn { get; } = new(0);
    }
}
