namespace DivCon.Simulation;

/// <summary>
/// What the simulator knows of the machine's memory: <c>machine.json</c> beside the program models, measured by
/// <c>divcon simulate calibrate</c> with the work-inflation microbenchmark (seed 000 §4) and editable by hand.
/// </summary>
public sealed record MachineModel
{
    /// <summary>The file name in a models folder.</summary>
    public const string FileName = "machine.json";

    /// <summary>Where the numbers come from (the measurement, its machine and size).</summary>
    public required string Source { get; init; }

    /// <summary>β (<see cref="SimulationParameters.MemoryContention"/>): F_P / T_1 of the microbenchmark on all the machine's cores.</summary>
    public required double MemoryContention { get; init; }

    /// <summary>The microbenchmark run β was computed from, or null for a hand-written model.</summary>
    public ContentionMeasurement? Measurement { get; init; }

    /// <summary>Every problem with the model, one sentence each; empty when it can be used.</summary>
    public IReadOnlyList<string> Validate()
    {
        var problems = new List<string>();
        problems.AddIf(string.IsNullOrWhiteSpace(Source), "The machine model needs a source.");
        problems.AddIf(!(MemoryContention >= 0) || !double.IsFinite(MemoryContention), $"The machine model's memoryContention must be finite and 0 or more; got {MemoryContention}.");

        return problems;
    }
}
