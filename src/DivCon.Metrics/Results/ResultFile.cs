using System.Text.Json.Serialization;

namespace DivCon.Metrics.Results;

/// <summary>
/// What every result file begins with: its <see cref="Kind"/> (which record it holds) and the
/// <see cref="SchemaVersion"/> of that record's shape. A reader checks both before anything else
/// (<see cref="ResultJson.Read{T}"/>), so an old or foreign file gives one line of error, not a half-read result.
/// </summary>
public abstract record ResultFile
{
    /// <summary>The shape of every result file this build writes and reads (1: the hand-written files before typed results; 2: typed results before raw per-invocation times).</summary>
    public const int CurrentSchemaVersion = 3;

    /// <summary>
    /// The oldest schema version of <paramref name="kind"/> this build reads. Version 3 changed the shape of the cyclic
    /// and symmetric results only (raw per-invocation times); every other kind of version 2 has today's shape, with the
    /// fields added since optional (the saved factored measurements the simulator is calibrated on are version 2).
    /// </summary>
    public static int OldestReadableVersion(string kind) => kind is "cyclic" or "symmetric" ? CurrentSchemaVersion : 2;

    /// <summary>A result file of <paramref name="kind"/>.</summary>
    protected ResultFile(string kind) => Kind = kind;

    /// <summary>Which result this is (<c>cyclic</c>, <c>symmetric</c>, <c>factored</c>, <c>simulate</c>, …).</summary>
    [JsonPropertyOrder(-3)]
    public string Kind { get; }

    /// <summary>The shape of the file; <see cref="CurrentSchemaVersion"/> when written by this build.</summary>
    [JsonPropertyOrder(-2)]
    public int SchemaVersion { get; init; } = CurrentSchemaVersion;
}
