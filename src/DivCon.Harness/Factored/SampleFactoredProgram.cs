using DivCon.Samples;

namespace DivCon.Harness.Factored;

/// <summary>
/// A sample program as an <see cref="IFactoredProgram"/>. A skeleton sample (<see cref="IDivConSample"/>) gets one
/// granularity for every worker count — the automatic one for <c>granularityCores</c> cores (seed 001's T_1 assumes
/// the same task tree at every P) — and its elision runs with granularity = problem size, restored afterwards.
/// Any other <see cref="ISampleProgram"/> has no elision; its input is made by <see cref="Prepare"/> when it is an
/// <see cref="ISampleInput"/>.
/// </summary>
public sealed class SampleFactoredProgram : IFactoredProgram
{
    private readonly ISampleProgram _program;
    private readonly IDivConSample? _skeleton;
    private readonly long _granularity;

    /// <summary>Wraps <paramref name="program"/>; a skeleton sample gets the automatic granularity for <paramref name="granularityCores"/> cores.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="granularityCores"/> is less than 1.</exception>
    public SampleFactoredProgram(ISampleProgram program, int granularityCores)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(granularityCores);
        _program = program;
        _skeleton = program as IDivConSample;
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

    /// <summary>The granularity of the parallel runs (0 for a program that is not a skeleton sample).</summary>
    public long Granularity => _granularity;

    /// <inheritdoc/>
    public void Prepare()
    {
        if (_skeleton is not null)
        {
            _skeleton.Initialize();
        }
        else
        {
            (_program as ISampleInput)?.Initialize();
        }
    }

    /// <inheritdoc/>
    public void RunSequential() => _program.RunSequential();

    /// <inheritdoc/>
    public Task RunParallelAsync(TaskScheduler scheduler, CancellationToken cancellationToken)
    {
        if (_skeleton is not null)
        {
            _skeleton.Granularity = _granularity;
        }

        return _program.RunParallelAsync(scheduler, cancellationToken);
    }

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
            await _skeleton.RunParallelAsync(scheduler, cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _skeleton.Granularity = _granularity;
        }
    }

    /// <inheritdoc/>
    public void Verify() => _program.Verify();
}
