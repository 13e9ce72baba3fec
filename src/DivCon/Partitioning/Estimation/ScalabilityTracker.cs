using System.Diagnostics.CodeAnalysis;

namespace DivCon.Partitioning.Estimation;

/// <summary>
/// The per-tick wiring of <see cref="OnlineScalabilityEstimator"/>, once for every mechanism (the
/// <c>MultiProgramScheduler</c>'s mover and the simulator's machine both call it): turns each program's cumulative
/// counters into one <see cref="ScalabilitySample"/> per tick, chooses the scalability a policy is given
/// (<see cref="ScalabilityChoice"/>: the user's number or table wins) and collects the probes to honour. Pure and
/// deterministic: no clock, no thread; not thread-safe (one caller, under the mechanism's lock).
/// </summary>
/// <remarks>
/// A chosen value changes only when the estimate moved by more than <see cref="ChangeTolerance"/> (relative) or its
/// source changed, so that a tick whose estimate wobbles by a fraction of a percent still counts as "nothing changed"
/// for the mechanism (no new snapshot, no loan ended) and a table is built only when it is used.
/// </remarks>
public sealed class ScalabilityTracker
{
    /// <summary>The relative change of an estimate below which the chosen value is kept (1 %).</summary>
    public const double ChangeTolerance = 0.01;

    // Entries by program id. Both mechanisms number their programs from small integers (the scheduler counts them,
    // the simulator indexes them), so an array indexed by id, grown as needed while it stays within a few times the
    // programs held, replaces a hash lookup per call; any other id (negative, or far beyond: a long-running scheduler
    // whose jobs came and went) is kept in the dictionary.
    private Entry?[] _byId = new Entry?[16];
    private readonly Dictionary<int, Entry> _others = [];
    private int _count;

    /// <summary>Creates a tracker for programs sharing <paramref name="cores"/> cores.</summary>
    /// <param name="cores">The cores being divided.</param>
    /// <param name="options">The estimator's settings; null for the defaults.</param>
    public ScalabilityTracker(int cores, ScalabilityEstimatorOptions? options = null)
    {
        Estimator = new OnlineScalabilityEstimator(cores, options);
    }

    /// <summary>The estimator underneath.</summary>
    public OnlineScalabilityEstimator Estimator { get; }

    /// <summary>
    /// One tick's sample from a program's cumulative counters at its start (<paramref name="previous"/>) and end
    /// (<paramref name="current"/>). Differences below zero (a counter read racily a little behind) count as 0, and
    /// the idle time never exceeds the core time.
    /// </summary>
    public static ScalabilitySample Sample(int assignedCores, double elapsedSeconds, in ProgramCounters previous, in ProgramCounters current)
    {
        double core = Math.Max(0, current.CoreSeconds - previous.CoreSeconds);
        double idle = Math.Clamp(current.IdleSeconds - previous.IdleSeconds, 0, core);
        long tasks = Math.Max(0, current.TasksExecuted - previous.TasksExecuted);
        return new ScalabilitySample(Math.Max(0, assignedCores), Math.Max(0, elapsedSeconds), core, idle, tasks);
    }

    /// <summary>
    /// Ends a tick of <paramref name="programId"/>: observes the difference between <paramref name="counters"/> and the
    /// counters of its previous call (the first call of a program only records them).
    /// </summary>
    /// <param name="programId">The program.</param>
    /// <param name="assignedCores">The cores the allocation in force gave it over the tick.</param>
    /// <param name="elapsedSeconds">The tick's length.</param>
    /// <param name="counters">Its cumulative counters now.</param>
    public void Observe(int programId, int assignedCores, double elapsedSeconds, in ProgramCounters counters)
    {
        Entry entry = EntryOf(programId);
        if (entry.HasCounters)
        {
            OnlineScalabilityEstimator.ObserveTracked(ObservationsOf(entry, programId), Sample(assignedCores, elapsedSeconds, entry.Counters, counters));
        }

        entry.Counters = counters;
        entry.HasCounters = true;
    }

    /// <summary>
    /// The scalability to give the policy for <paramref name="programId"/> (<see cref="ScalabilityChoice.Choose"/>):
    /// the user's number or table when given, else the online estimate once there is one, else 1. The same object is
    /// returned while nothing changed by more than <see cref="ChangeTolerance"/>.
    /// </summary>
    public ScalabilityChoice Choose(int programId, double? userScalability, ScalabilityTable? userTable)
    {
        Entry entry = EntryOf(programId);
        ScalabilityChoice? last = entry.Choice;
        if (userScalability is not null || userTable is not null)
        {
            if (last is null || last.Source != ScalabilitySource.User || entry.UserScalability != userScalability || !ReferenceEquals(last.Table, userTable))
            {
                entry.Choice = ScalabilityChoice.Choose(userScalability, userTable, default, null, Estimator.Cores);
                entry.UserScalability = userScalability;
            }

            return entry.Choice!;
        }

        ScalabilityEstimate estimate;
        if (entry.Observations is { Removed: false } observations)
        {
            // The mover reads the probe and the estimate of this program next: they find it without a lookup.
            Estimator.Remember(observations);
            estimate = observations.Estimate;
        }
        else
        {
            estimate = Estimator.GetEstimate(programId);
        }

        ScalabilitySource source = estimate.HasEstimate ? ScalabilitySource.Online : ScalabilitySource.Default;
        if (last is not null && last.Source == source
            && (source == ScalabilitySource.Default || Math.Abs(estimate.Scalability - last.Scalability) <= ChangeTolerance * last.Scalability))
        {
            return last;
        }

        entry.Choice = ScalabilityChoice.Choose(null, null, estimate, Estimator.CreateTable(programId), Estimator.Cores);
        if (last is not null)
        {
            entry.Changes++;
        }

        return entry.Choice;
    }

    /// <summary>How many times the chosen value of a program without a user-given scalability changed (0 when unknown).</summary>
    public int ChoiceChanges(int programId) => TryGet(programId, out Entry? e) ? e.Changes : 0;

    /// <summary>
    /// Adds to <paramref name="probes"/> the probe each program of <paramref name="programIds"/> asks for, except those
    /// whose last choice was the user's (they are never probed). Returns how many were added.
    /// </summary>
    public int CollectProbes(IReadOnlyList<int> programIds, List<ScalabilityProbe> probes)
    {
        ArgumentNullException.ThrowIfNull(programIds);
        ArgumentNullException.ThrowIfNull(probes);
        int added = 0;
        foreach (int id in programIds)
        {
            if (TryGet(id, out Entry? e) && e.Choice?.Source != ScalabilitySource.User
                && (e.Observations is { Removed: false } observations ? observations.TryGetProbe(out ScalabilityProbe probe) : Estimator.TryGetProbe(id, out probe)))
            {
                probes.Add(probe);
                added++;
            }
        }

        return added;
    }

    /// <summary>Forgets a program that left.</summary>
    public void Remove(int programId)
    {
        if ((uint)programId < (uint)_byId.Length && _byId[programId] is not null)
        {
            _byId[programId] = null;
            _count--;
        }
        else if (_others.Remove(programId))
        {
            _count--;
        }

        Estimator.Remove(programId);
    }

    // The estimator's record of the program, held by its entry so that a tick looks the program up once (in the
    // tracker's table); looked up again if the estimator forgot it meanwhile (Estimator.Remove called directly).
    private ProgramObservations ObservationsOf(Entry entry, int programId)
    {
        ProgramObservations? observations = entry.Observations;
        if (observations is null || observations.Removed)
        {
            entry.Observations = observations = Estimator.Track(programId);
        }
        else
        {
            Estimator.Remember(observations);
        }

        return observations;
    }

    private Entry EntryOf(int programId)
    {
        if (!TryGet(programId, out Entry? entry))
        {
            entry = new Entry();
            Add(programId, entry);
        }

        return entry;
    }

    private bool TryGet(int programId, [NotNullWhen(true)] out Entry? entry)
    {
        if ((uint)programId < (uint)_byId.Length && _byId[programId] is { } found)
        {
            entry = found;
            return true;
        }

        return _others.TryGetValue(programId, out entry);
    }

    private void Add(int programId, Entry entry)
    {
        _count++;
        if (programId >= 0 && programId < Math.Max(64, 8 * _count))
        {
            if (programId >= _byId.Length)
            {
                Array.Resize(ref _byId, Math.Max(2 * _byId.Length, programId + 1));
            }

            _byId[programId] = entry;
        }
        else
        {
            _others[programId] = entry;
        }
    }

    private sealed class Entry
    {
        public ProgramCounters Counters;
        public ProgramObservations? Observations;
        public bool HasCounters;
        public ScalabilityChoice? Choice;
        public double? UserScalability;
        public int Changes;
    }
}
