using DivCon.Skeletons;

namespace DivCon.Harness.Programs;

/// <summary>
/// A program written on the divide-and-conquer skeleton: a workload program with the knobs the isolated experiments
/// turn (granularity, the sequential elision, the phase profiler).
/// </summary>
public interface ISkeletonProgram : IWorkloadProgram
{
    /// <summary>How many subproblems a split makes.</summary>
    int BranchingFactor { get; }

    /// <summary>The size of the top-level problem, in the program's units.</summary>
    long ProblemSize { get; }

    /// <summary>The subproblem size at or below which splitting stops (at least 1).</summary>
    long Granularity { get; set; }

    /// <summary>Phase profiling hooks for the following runs; null (off) by default.</summary>
    PhaseProfiler? Profiler { get; set; }

    /// <summary>Sets <see cref="Granularity"/> for about <paramref name="cores"/> · <paramref name="musclesPerCore"/> execute muscles (§4.5.2).</summary>
    void UseAutomaticGranularity(int cores, int musclesPerCore = GranularDivCon<int, int>.DefaultMusclesPerCore);

    /// <summary>Sets <see cref="Granularity"/> to <see cref="ProblemSize"/>: the sequential elision.</summary>
    void UseSequentialElision();
}
