using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace DivCon.Simulation;

/// <summary>
/// Program models as JSON files named <c>&lt;program&gt;.json</c>, and the machine model <c>machine.json</c>: the
/// defaults shipped inside this assembly, or a folder of hand-edited or calibrated ones.
/// </summary>
public static class ModelStore
{
    private const string ResourcePrefix = "DivCon.Simulation.Models.";

    /// <summary>The names of the shipped default models (the five sample programs).</summary>
    public static IReadOnlyList<string> DefaultNames { get; } =
        typeof(ModelStore).Assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(ResourcePrefix, StringComparison.Ordinal) && n.EndsWith(".json", StringComparison.Ordinal))
            .Select(n => n[ResourcePrefix.Length..^".json".Length])
            .Where(n => n + ".json" != MachineModel.FileName)
            .Order(StringComparer.Ordinal)
            .ToArray();

    /// <summary>The shipped default model of <paramref name="program"/>.</summary>
    /// <exception cref="ArgumentException">No default model has that name.</exception>
    public static ProgramModel LoadDefault(string program) => Deserialize(
        Resource($"{program}.json")
            ?? throw new ArgumentException($"No default model for '{program}'; the defaults are: {string.Join(", ", DefaultNames)}.", nameof(program)),
        $"default model '{program}'", "model", SimulationJsonContext.Default.ProgramModel, m => m.Validate());

    /// <summary>Loads <c>&lt;program&gt;.json</c> from <paramref name="folder"/>.</summary>
    /// <exception cref="FileNotFoundException">The file does not exist.</exception>
    /// <exception cref="InvalidDataException">The file is not a valid model; the message says why.</exception>
    public static ProgramModel Load(string folder, string program)
    {
        string path = Path.Combine(folder, program + ".json");
        return Deserialize(OpenFile(path, $"No model file '{path}'."), path, "model", SimulationJsonContext.Default.ProgramModel, m => m.Validate());
    }

    /// <summary>The shipped machine model.</summary>
    public static MachineModel LoadDefaultMachine() => Deserialize(
        Resource(MachineModel.FileName) ?? throw new InvalidOperationException($"The shipped {MachineModel.FileName} is missing from the assembly."),
        $"default {MachineModel.FileName}", "machine model", SimulationJsonContext.Default.MachineModel, m => m.Validate());

    /// <summary>Loads the machine model in the file <paramref name="path"/>.</summary>
    /// <exception cref="FileNotFoundException">The file does not exist.</exception>
    /// <exception cref="InvalidDataException">The file is not a valid machine model; the message says why.</exception>
    public static MachineModel ReadMachine(string path) => Deserialize(
        OpenFile(path, $"No machine model '{path}' (divcon simulate calibrate writes one beside the program models)."),
        path, "machine model", SimulationJsonContext.Default.MachineModel, m => m.Validate());

    /// <summary>The JSON text of <paramref name="machine"/> (indented, camelCase, newline at the end).</summary>
    public static string MachineToJson(MachineModel machine) => JsonSerializer.Serialize(machine, SimulationJsonContext.Default.MachineModel) + "\n";

    /// <summary>The JSON text of <paramref name="model"/> (indented, camelCase, newline at the end).</summary>
    public static string ToJson(ProgramModel model) => JsonSerializer.Serialize(model, SimulationJsonContext.Default.ProgramModel) + "\n";

    private static Stream? Resource(string file) => typeof(ModelStore).Assembly.GetManifestResourceStream(ResourcePrefix + file);

    private static FileStream OpenFile(string path, string missing) => File.Exists(path) ? File.OpenRead(path) : throw new FileNotFoundException(missing, path);

    // Reads, closes and validates the stream.
    private static T Deserialize<T>(Stream stream, string origin, string what, JsonTypeInfo<T> type, Func<T, IReadOnlyList<string>> validate)
    {
        using Stream _ = stream;
        T? value;
        try
        {
            value = JsonSerializer.Deserialize(stream, type);
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{origin} is not a valid {what}: {e.Message}", e);
        }

        T read = value ?? throw new InvalidDataException($"{origin} is empty.");
        IReadOnlyList<string> problems = validate(read);
        return problems.Count > 0 ? throw new InvalidDataException($"{origin}: {string.Join(" ", problems)}") : read;
    }
}
