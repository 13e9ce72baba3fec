namespace DivCon.Simulation;

/// <summary>
/// The record <c>simulate.json</c> holds. Nothing wall-clock (no dates, no machine, no elapsed real time) goes in, so
/// the same options give byte-identical files.
/// </summary>
/// <param name="Settings">The options as given (cores, schemes, models, size, seed, duration, repeat).</param>
/// <param name="Parameters">The costs of the simulated machine.</param>
/// <param name="Results">One per workload and core count.</param>
public sealed record SimulationFile(IReadOnlyDictionary<string, string> Settings, SimulationParameters Parameters, IReadOnlyList<SimulationResult> Results)
    : ResultFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "simulate";
}
