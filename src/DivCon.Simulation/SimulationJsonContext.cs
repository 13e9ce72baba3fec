using System.Text.Json.Serialization;

namespace DivCon.Simulation;

/// <summary>
/// The source-generated serializer of the simulator's files: <c>simulate.json</c>, <c>validate.json</c> and <c>thesis.json</c> (<see cref="Files"/>, the result
/// files' options), program models and the machine model (<see cref="JsonSerializerContext"/>'s default instance: camelCase, indented,
/// nulls left out).
/// </summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, WriteIndented = true,
    DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(SimulationFile))]
[JsonSerializable(typeof(ProgramModel))]
[JsonSerializable(typeof(MachineModel))]
[JsonSerializable(typeof(Validation.ValidationFile))]
[JsonSerializable(typeof(Validation.ThesisComparisonFile))]
public sealed partial class SimulationJsonContext : JsonSerializerContext
{
    /// <summary>The context with the result files' options (<see cref="ResultJson.CreateOptions"/>).</summary>
    public static SimulationJsonContext Files { get; } = new(ResultJson.CreateOptions());
}
