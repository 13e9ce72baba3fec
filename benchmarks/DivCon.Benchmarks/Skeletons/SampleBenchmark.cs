using BenchmarkDotNet.Attributes;
using DivCon.Samples;

namespace DivCon.Benchmarks.Skeletons;

/// <summary>
/// The base of the benchmarks that time one sample program, <see cref="Program"/> at <see cref="Size"/>, on
/// <see cref="SchedulerBenchmark.Scheduler"/>; cleanup checks the last parallel result against the sequential baseline.
/// </summary>
public abstract class SampleBenchmark : SchedulerBenchmark
{
    /// <summary>The catalogue name of the program; the derived class gives its [Params].</summary>
    public abstract string Program { get; set; }

    [Params(ProblemSize.Medium, Priority = SchedulerBenchmark.SizePriority)]
    public ProblemSize Size { get; set; } = ProblemSize.Medium;

    /// <summary>The program being timed (made by setup).</summary>
    protected IDivConSample Sample { get; private set; } = null!;

    /// <summary>The granularity and execution settings the program is made with: automatic granularity for 2 cores.</summary>
    protected virtual SampleSettings Settings => new() { Cores = 2 };

    /// <inheritdoc/>
    protected override void SetUpPrograms()
    {
        Sample = SampleCatalog.Create(Program, Size, settings: Settings);
        Sample.Initialize();
    }

    /// <inheritdoc/>
    protected override void CheckPrograms() => Sample.Verify();

    /// <summary>One parallel run of the program on the scheduler, waited for.</summary>
    protected void RunParallel() => Sample.RunParallelAsync(TaskScheduler).GetAwaiter().GetResult();
}
