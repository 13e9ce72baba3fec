using DivCon.Harness.Programs;
using DivCon.Samples;

namespace DivCon.Cli.Programs;

/// <summary>A sample program as the harness sees it.</summary>
internal class SampleWorkload(ISampleProgram program) : IWorkloadProgram
{
    /// <summary>The wrapped program.</summary>
    public ISampleProgram Program { get; } = program;

    /// <inheritdoc/>
    public string Name => Program.Name;

    /// <summary>Wraps <paramref name="program"/>: a skeleton sample as an <see cref="ISkeletonProgram"/>.</summary>
    public static IWorkloadProgram Of(ISampleProgram program) =>
        program is IDivConSample skeleton ? new SkeletonSample(skeleton) : new SampleWorkload(program);

    /// <inheritdoc/>
    public void Initialize()
    {
        switch (Program)
        {
            case IDivConSample { IsInitialized: false } sample:
                sample.Initialize();
                break;
            case ISampleInput { IsInitialized: false } input:
                input.Initialize();
                break;
        }
    }

    /// <inheritdoc/>
    public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken) => Program.RunParallelAsync(scheduler, cancellationToken);

    /// <inheritdoc/>
    public void RunSequential() => Program.RunSequential();

    /// <inheritdoc/>
    public void Verify() => Program.Verify();
}
