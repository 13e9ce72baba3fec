using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// Optional settings for <see cref="SampleCatalog.Create"/>: the granularity (automatic for some cores and muscles per
/// core, an explicit value, or the sequential elision), the execution mode and a phase profiler.
/// </summary>
public sealed record SampleSettings
{
    /// <summary>Cores for the automatic granularity; null means <see cref="Environment.ProcessorCount"/>.</summary>
    public int? Cores { get; init; }

    /// <summary>Target execute muscles per core for the automatic granularity (default 4, §4.5.2).</summary>
    public int MusclesPerCore { get; init; } = GranularDivCon<int, int>.DefaultMusclesPerCore;

    /// <summary>An explicit granularity (at least 1), replacing the automatic one; not together with <see cref="SequentialElision"/>.</summary>
    public long? Granularity { get; init; }

    /// <summary>Run the sequential elision: granularity = problem size, one muscle.</summary>
    public bool SequentialElision { get; init; }

    /// <summary>Asynchronous recursion (default) or blocking fork-join.</summary>
    public DivConExecution Execution { get; init; } = DivConExecution.Asynchronous;

    /// <summary>A phase profiler to attach, or null.</summary>
    public PhaseProfiler? Profiler { get; init; }

    /// <summary>Every problem with these settings, one message each; empty when they are valid.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        if (Cores is < 1)
        {
            problems.Add($"Cores must be at least 1 (or null for Environment.ProcessorCount); got {Cores}.");
        }

        if (MusclesPerCore < 1)
        {
            problems.Add($"MusclesPerCore must be at least 1; got {MusclesPerCore}.");
        }

        if (Granularity is < 1)
        {
            problems.Add($"Granularity must be at least 1 (or null for automatic); got {Granularity}.");
        }

        if (Granularity is not null && SequentialElision)
        {
            problems.Add("Granularity and SequentialElision exclude each other: the elision sets the granularity to the problem size.");
        }

        if (Execution is not (DivConExecution.Asynchronous or DivConExecution.ForkJoin))
        {
            problems.Add($"Execution must be Asynchronous or ForkJoin; got {Execution}.");
        }

        return problems;
    }

    /// <summary>Applies the settings to <paramref name="program"/>.</summary>
    /// <exception cref="ArgumentException">The settings are invalid (every problem is listed).</exception>
    public void ApplyTo(IDivConSample program)
    {
        ArgumentNullException.ThrowIfNull(program);
        IReadOnlyList<string> problems = Validate();
        if (problems.Count > 0)
        {
            throw new ArgumentException("Invalid sample settings: " + string.Join(" ", problems), nameof(program));
        }

        if (SequentialElision)
        {
            program.UseSequentialElision();
        }
        else if (Granularity is long granularity)
        {
            program.Granularity = granularity;
        }
        else
        {
            program.UseAutomaticGranularity(Cores ?? Environment.ProcessorCount, MusclesPerCore);
        }

        program.Execution = Execution;
        program.Profiler = Profiler;
    }
}
