using DivCon.Samples;

namespace DivCon.Harness.Programs;

/// <summary>An <see cref="ISampleProgram"/> as a workload program, optionally under another name (a symmetric test's instance).</summary>
public sealed class SampleProgramAdapter : IWorkloadProgram
{
    private readonly ISampleProgram _program;

    /// <summary>
    /// Wraps <paramref name="program"/>; <paramref name="name"/> defaults to its catalogue name. A skeleton sample
    /// (<see cref="IDivConSample"/>) makes its input data now, so that no timed run pays for it.
    /// </summary>
    public SampleProgramAdapter(ISampleProgram program, string? name = null)
    {
        ArgumentNullException.ThrowIfNull(program);
        _program = program;
        Name = name ?? program.Name;
        if (program is IDivConSample { IsInitialized: false } sample)
        {
            sample.Initialize();
        }
    }

    /// <inheritdoc/>
    public string Name { get; }

    /// <summary>The wrapped program.</summary>
    public ISampleProgram Program => _program;

    /// <inheritdoc/>
    public Task RunAsync(TaskScheduler scheduler, CancellationToken cancellationToken) => _program.RunParallelAsync(scheduler, cancellationToken);

    /// <inheritdoc/>
    public void RunSequential() => _program.RunSequential();

    /// <inheritdoc/>
    public void Verify() => _program.Verify();
}
