namespace DivCon.Simulation.Validation;

/// <summary>The record <c>thesis.json</c> holds: the comparison and what it was simulated with. Nothing wall-clock: the same options give the same file.</summary>
/// <param name="ModelsName">Which models (default or a folder's name).</param>
/// <param name="Models">Per program, its model's source.</param>
/// <param name="Parameters">The simulator's costs.</param>
/// <param name="GranularityCores">The granularity's core count.</param>
/// <param name="Runs">Simulated runs per speedup.</param>
/// <param name="Rows">One per stated speedup.</param>
public sealed record ThesisComparisonFile(
    string ModelsName, IReadOnlyDictionary<string, string> Models, SimulationParameters Parameters, int GranularityCores, int Runs, IReadOnlyList<ThesisComparison> Rows)
    : Metrics.Results.ResultFile(FileKind)
{
    /// <summary>The file kind and base name.</summary>
    public const string FileKind = "thesis";
}
