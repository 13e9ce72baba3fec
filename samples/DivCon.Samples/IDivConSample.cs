using DivCon.Skeletons;

namespace DivCon.Samples;

/// <summary>
/// A sample program written on the D&amp;C skeleton: <see cref="ISampleProgram"/> plus the knobs the harness needs for
/// factored speedups and granularity experiments (an additive extension of the contract; every program in
/// <see cref="SampleCatalog"/> implements it).
/// </summary>
public interface IDivConSample : ISampleProgram
{
    /// <summary>How many subproblems a split makes.</summary>
    int BranchingFactor { get; }

    /// <summary>The size of the top-level problem, in the program's units (elements, points, matrix elements).</summary>
    long ProblemSize { get; }

    /// <summary>The subproblem size at or below which splitting stops (at least 1); equal to <see cref="ProblemSize"/> for the sequential elision.</summary>
    long Granularity { get; set; }

    /// <summary>Whether the next run is the sequential elision (one execute muscle, no split, no merge).</summary>
    bool IsSequentialElision { get; }

    /// <summary>Asynchronous recursion (default) or the blocking fork-join variant.</summary>
    DivConExecution Execution { get; set; }

    /// <summary>Phase profiling hooks for the following runs; null (off) by default.</summary>
    PhaseProfiler? Profiler { get; set; }

    /// <summary>Whether the input data has been made.</summary>
    bool IsInitialized { get; }

    /// <summary>Sets <see cref="Granularity"/> for about <paramref name="cores"/> · <paramref name="musclesPerCore"/> execute muscles (§4.5.2).</summary>
    void UseAutomaticGranularity(int cores, int musclesPerCore = GranularDivCon<int, int>.DefaultMusclesPerCore);

    /// <summary>Sets <see cref="Granularity"/> to <see cref="ProblemSize"/>: the sequential elision.</summary>
    void UseSequentialElision();

    /// <summary>
    /// Makes the input data if not made yet (otherwise the first run or <see cref="ISampleProgram.RunSequential"/>
    /// makes it, inside whatever is being timed). Not thread-safe.
    /// </summary>
    void Initialize();
}
