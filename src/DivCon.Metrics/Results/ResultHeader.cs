namespace DivCon.Metrics.Results;

/// <summary>The first two properties of a result file, read before the rest (<see cref="ResultJson.Read{T}"/>).</summary>
/// <param name="Kind">Which result the file holds; null when it has none.</param>
/// <param name="SchemaVersion">The shape of the file; 0 when it says none.</param>
public sealed record ResultHeader(string? Kind, int SchemaVersion);
