using System.Text.Json.Serialization;

namespace DivCon.Metrics.Results;

/// <summary>A result measured on this machine: when it started, how long it took, and the machine it ran on.</summary>
public abstract record ExperimentFile : ResultFile
{
    /// <summary>A measured result of <paramref name="kind"/>.</summary>
    protected ExperimentFile(string kind)
        : base(kind)
    {
    }

    /// <summary>When the measurement started.</summary>
    [JsonPropertyOrder(-1)]
    public required DateTimeOffset StartedUtc { get; init; }

    /// <summary>How long it took, seconds.</summary>
    [JsonPropertyOrder(-1)]
    public required double ElapsedSeconds { get; init; }

    /// <summary>The machine, runtime and build it ran on.</summary>
    [JsonPropertyOrder(-1)]
    public required MachineInfo Machine { get; init; }
}
