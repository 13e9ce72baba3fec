namespace DivCon.Harness.Schemes;

/// <summary>What a scheme needs to build its schedulers for one multiprogram phase.</summary>
/// <param name="Programs">The programs, in phase order (index = program index).</param>
/// <param name="Processors">The processors the schemes may use (the process's affinity mask, or the first <c>--cores</c> of it).</param>
public sealed record SchemeContext(IReadOnlyList<SchemeProgramInfo> Programs, IReadOnlyList<int> Processors)
{
    /// <summary>Number of processors.</summary>
    public int Cores => Processors.Count;
}
