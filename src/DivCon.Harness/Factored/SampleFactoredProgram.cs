using DivCon.Harness.Programs;

namespace DivCon.Harness.Factored;

/// <summary>
/// A workload program as an <see cref="IFactoredProgram"/>. A skeleton program (<see cref="ISkeletonProgram"/>) gets one
/// granularity for every worker count — the automatic one for <c>granularityCores</c> cores (seed 001's T_1 assumes
/// the same task tree at every P) — and its elision runs with granularity = problem size, restored afterwards.
/// Any other program has no elision. Its input is made by <see cref="Prepare"/>.
/// </summary>
public sealed class SampleFactoredProgram : IFactoredProgram
{
    private readonly IWorkloadProgram _program;
    private readonly ISkeletonProgram? _skeleton;
    private readonly long _granularity;

    /// <summary>Wraps <paramref name="program"/>; a skeleton sample gets the automatic granularity for <paramref name="granularityCores"/> cores.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="granularityCores"/> is less than 1.</exception>
    public SampleFactoredProgram(IWorkloadProgram program, int granularityCores)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(granularityCores);
        _program = program;
        _skeleton = program as ISkeletonProgram;
        if (_skeleton is not null)
        {
            _skeleton.UseAutomaticGranularity(granularityCores);
            _granularity = _skeleton.Granularity;
        }
    }

    /// <inheritdoc/>
    public string Name => _program.Name;

    /// <inheritdoc/>
    public bool HasElision => _skeleton is not null;

    /// <inheritdoc/>
    public void Prepare() => _program.Initialize();

    /// <inheritdoc/>
    public void RunSequential() => _program.RunSequential();

    /// <inheritdoc/>
    public Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken) => _program.RunAsync(scheduler, cancellationToken);

    /// <inheritdoc/>
    public async Task RunElisionAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        if (_skeleton is null)
        {
            throw new NotSupportedException($"{Name} is not a skeleton program: it has no sequential elision.");
        }

        _skeleton.UseSequentialElision();
        try
        {
            await _skeleton.RunAsync(scheduler, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _skeleton.Granularity = _granularity;
        }
    }

    /// <inheritdoc/>
    public void Verify() => _program.Verify();
}
