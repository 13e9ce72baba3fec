using System.Diagnostics.CodeAnalysis;
using System.Runtime.InteropServices;

namespace DivCon.Partitioning.Estimation;

/// <summary>
/// Estimates each program's scalability while it runs, from the statistics a multiprogram scheduler records per tick
/// (<see cref="ScalabilitySample"/>: core time served, its workers' idle time, tasks finished), with a confidence,
/// and asks for a bounded number of probe ticks at another allocation when one allocation cannot separate the
/// effects. The model and its limits are in <c>docs/online-scalability.md</c>.
/// </summary>
/// <remarks>
/// <para><b>Model.</b> The factored speedup P·T_P = T_1 + F_P + I_P (work, work inflation, idle time). Per core
/// count P the program was served at, the idle fraction u_P = ΣI / ΣC gives an Amdahl serial fraction
/// s = u_P / ((P − 1)(1 − u_P)); busy time per finished task at two or more core counts gives the inflation per
/// added core φ (busy per task = b_1·(1 + φ·(P − 1)), P the served cores but at least one: a worker serving the
/// program for part of a tick is one worker). The speedup is S(P) = P / ((1 + (P − 1)·s(P))·(1 + φ·(P − 1))),
/// s(P) interpolated between the observed core counts and flat beyond them; <see cref="ScalabilityEstimate.Scalability"/>
/// is S at all <see cref="Cores"/>.</para>
/// <para><b>Threading.</b> Not thread-safe: one caller (the repartitioning thread) calls every method. Deterministic:
/// the same samples in the same order give the same estimates and probes.</para>
/// <para><b>Cost.</b> <see cref="Observe"/> allocates nothing once a program has been seen (the first observation of
/// a program allocates its O(<see cref="Cores"/>) bins). It updates the one core count the tick landed in and the
/// program's sums over its core counts, so it costs the same whatever the number of counts, except that every 32nd
/// tick of a program (and a tick at which a count may have decayed out of a sum) recomputes the sums over its counts.</para>
/// </remarks>
public sealed class OnlineScalabilityEstimator
{
    private readonly Dictionary<int, ProgramObservations> _programs = [];
    private readonly double _decay;

    // The program of the last lookup: a caller asks about one program several times in a row (the scheduler's mover
    // chooses its input, then reads its probe and its estimate), so a lookup by id usually costs a comparison.
    private ProgramObservations? _last;

    /// <summary>Creates an estimator for programs sharing <paramref name="cores"/> cores.</summary>
    /// <param name="cores">The cores being divided (the scheduler's workers); the scalability is the speedup on all of them.</param>
    /// <param name="options">Settings; <see langword="null"/> for the defaults.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="cores"/> is not positive.</exception>
    /// <exception cref="ArgumentException">The options are invalid (every problem listed).</exception>
    public OnlineScalabilityEstimator(int cores, ScalabilityEstimatorOptions? options = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        options ??= new ScalabilityEstimatorOptions();
        IReadOnlyList<string> problems = options.Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException(string.Join(" ", problems), nameof(options));
        }

        Cores = cores;
        Options = options;
        _decay = double.IsPositiveInfinity(options.HalfLifeTicks) ? 1 : Math.Pow(0.5, 1 / options.HalfLifeTicks);
    }

    /// <summary>The cores being divided.</summary>
    public int Cores { get; }

    /// <summary>The settings in force.</summary>
    public ScalabilityEstimatorOptions Options { get; }

    /// <summary>Programs observed and not removed.</summary>
    public int ProgramCount => _programs.Count;

    /// <summary>
    /// Adds one tick of <paramref name="programId"/>'s statistics and updates its estimate and probe request. A tick
    /// in which the program was not served (no elapsed or core time) changes nothing; a tick in which it ran nothing
    /// and its workers were idle throughout (no demand, for example between jobs) counts for the probing budget only.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">A field of <paramref name="sample"/> is negative or not finite.</exception>
    public void Observe(int programId, in ScalabilitySample sample)
    {
        Validate(sample);
        Track(programId).Observe(sample);
    }

    // Observe for a program already looked up (Track): what ScalabilityTracker calls per tick.
    internal static void ObserveTracked(ProgramObservations program, in ScalabilitySample sample)
    {
        Validate(sample);
        program.Observe(sample);
    }

    private static void Validate(in ScalabilitySample sample)
    {
        if (!(sample.ElapsedSeconds >= 0) || !double.IsFinite(sample.ElapsedSeconds)
            || !(sample.CoreSeconds >= 0) || !double.IsFinite(sample.CoreSeconds)
            || !(sample.IdleSeconds >= 0) || !double.IsFinite(sample.IdleSeconds)
            || sample.TasksExecuted < 0 || sample.AssignedCores < 0)
        {
            ThrowBadSample(sample);
        }
    }

    // The program's observations, created at its first observation; remembered as the last one looked up.
    internal ProgramObservations Track(int programId)
    {
        if (_last?.ProgramId == programId)
        {
            return _last;
        }

        ref ProgramObservations? program = ref CollectionsMarshal.GetValueRefOrAddDefault(_programs, programId, out bool exists);
        if (!exists)
        {
            program = new ProgramObservations(programId, Cores, Options, _decay);
        }

        return _last = program!;
    }

    // Makes `program` (tracked, not removed) the last one looked up: the tracker, which holds it, reads it by reference.
    internal void Remember(ProgramObservations program) => _last = program;

    private bool TryFind(int programId, [NotNullWhen(true)] out ProgramObservations? program)
    {
        if (_last?.ProgramId == programId)
        {
            program = _last;
            return true;
        }

        if (_programs.TryGetValue(programId, out program))
        {
            _last = program;
            return true;
        }

        return false;
    }

    /// <summary>The program's current estimate; one without an estimate (<see cref="ScalabilityEstimate.HasEstimate"/> false) for an unknown program.</summary>
    public ScalabilityEstimate GetEstimate(int programId)
        => TryFind(programId, out ProgramObservations? p)
            ? p.Estimate
            : NoEstimate;

    /// <summary>The estimate of a program nothing is known about (<see cref="ScalabilityEstimate.HasEstimate"/> false).</summary>
    public static ScalabilityEstimate NoEstimate => new(false, 1, 1, 0, 0, 0, false, double.PositiveInfinity, 0, 0, 0);

    /// <summary>
    /// Whether the estimator asks that <paramref name="programId"/> get <see cref="ScalabilityProbe.Cores"/> cores for
    /// the next tick. Probe ticks never exceed <see cref="ScalabilityEstimatorOptions.ProbeFraction"/> of the program's
    /// observed ticks, whether the request is honoured or not.
    /// </summary>
    public bool TryGetProbe(int programId, out ScalabilityProbe probe)
    {
        if (TryFind(programId, out ProgramObservations? p))
        {
            return p.TryGetProbe(out probe);
        }

        probe = default;
        return false;
    }

    /// <summary>The estimated speedup T_1 / T_P of <paramref name="programId"/> on <paramref name="cores"/> cores; 1 without an estimate.</summary>
    public double SpeedupAt(int programId, int cores)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(cores);
        return TryFind(programId, out ProgramObservations? p) ? p.SpeedupAt(cores) : 1;
    }

    /// <summary>
    /// The estimate as a table at 1, 2, 4, … cores and at <see cref="Cores"/> (for table-driven policies such as
    /// <see cref="HillClimbingPolicy"/>); <see langword="null"/> without an estimate. Allocates: call it when the
    /// estimate is used, not per tick.
    /// </summary>
    public ScalabilityTable? CreateTable(int programId)
    {
        if (!TryFind(programId, out ProgramObservations? p) || !p.Estimate.HasEstimate)
        {
            return null;
        }

        var points = new List<(int, double)>();
        for (int c = 1; c < Cores; c *= 2)
        {
            points.Add((c, p.SpeedupAt(c)));
        }

        points.Add((Cores, p.SpeedupAt(Cores)));
        return new ScalabilityTable(points);
    }

    /// <summary>Ticks observed for <paramref name="programId"/> while it was served (the probing budget's base); 0 when unknown.</summary>
    public long ObservedTicks(int programId) => TryFind(programId, out ProgramObservations? p) ? p.Ticks : 0;

    /// <summary>Of <see cref="ObservedTicks"/>, those that had been requested as probe ticks.</summary>
    public long ProbedTicks(int programId) => TryFind(programId, out ProgramObservations? p) ? p.ProbedTicks : 0;

    /// <summary>Forgets <paramref name="programId"/> (it left); false when it was unknown.</summary>
    public bool Remove(int programId)
    {
        if (!_programs.Remove(programId, out ProgramObservations? program))
        {
            return false;
        }

        program.Removed = true;
        if (ReferenceEquals(_last, program))
        {
            _last = null;
        }

        return true;
    }

    private static void ThrowBadSample(in ScalabilitySample sample)
        => throw new ArgumentOutOfRangeException(
            nameof(sample), sample, "A sample's times must be finite and not negative, and its core and task counts not negative.");
}
