using DivCon.Harness.Programs;
using DivCon.Samples;
using DivCon.Skeletons;

namespace DivCon.Cli.Programs;

/// <summary>A sample program written on the skeleton as an <see cref="ISkeletonProgram"/>.</summary>
internal sealed class SkeletonSample(IDivConSample sample) : SampleWorkload(sample), ISkeletonProgram
{
    /// <inheritdoc/>
    public int BranchingFactor => sample.BranchingFactor;

    /// <inheritdoc/>
    public long ProblemSize => sample.ProblemSize;

    /// <inheritdoc/>
    public long Granularity
    {
        get => sample.Granularity;
        set => sample.Granularity = value;
    }

    /// <inheritdoc/>
    public PhaseProfiler? Profiler
    {
        get => sample.Profiler;
        set => sample.Profiler = value;
    }

    /// <inheritdoc/>
    public void UseAutomaticGranularity(int cores, int musclesPerCore) => sample.UseAutomaticGranularity(cores, musclesPerCore);

    /// <inheritdoc/>
    public void UseSequentialElision() => sample.UseSequentialElision();
}
