using System.Reflection;
using System.Text.Json;

namespace DivCon.Simulation;

/// <summary>
/// Program models as JSON files named <c>&lt;program&gt;.json</c>: the defaults shipped inside this assembly, or a
/// folder of hand-edited or calibrated ones.
/// </summary>
public static class ModelStore
{
    /// <summary>The names of the shipped default models (the five sample programs).</summary>
    public static IReadOnlyList<string> DefaultNames { get; } =
        typeof(ModelStore).Assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith("DivCon.Simulation.Models.", StringComparison.Ordinal) && n.EndsWith(".json", StringComparison.Ordinal))
            .Select(n => n["DivCon.Simulation.Models.".Length..^".json".Length])
            .Order(StringComparer.Ordinal)
            .ToArray();

    /// <summary>The shipped default model of <paramref name="program"/>.</summary>
    /// <exception cref="ArgumentException">No default model has that name.</exception>
    public static ProgramModel LoadDefault(string program)
    {
        Assembly assembly = typeof(ModelStore).Assembly;
        using Stream? stream = assembly.GetManifestResourceStream($"DivCon.Simulation.Models.{program}.json");
        if (stream is null)
        {
            throw new ArgumentException($"No default model for '{program}'; the defaults are: {string.Join(", ", DefaultNames)}.", nameof(program));
        }

        return Deserialize(stream, $"default model '{program}'");
    }

    /// <summary>Loads <c>&lt;program&gt;.json</c> from <paramref name="folder"/>.</summary>
    /// <exception cref="FileNotFoundException">The file does not exist.</exception>
    /// <exception cref="InvalidDataException">The file is not a valid model; the message says why.</exception>
    public static ProgramModel Load(string folder, string program)
    {
        string path = Path.Combine(folder, program + ".json");
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"No model file '{path}'.", path);
        }

        using FileStream stream = File.OpenRead(path);
        return Deserialize(stream, path);
    }

    /// <summary>Writes <paramref name="model"/> to <c>&lt;folder&gt;/&lt;name&gt;.json</c> and returns the path.</summary>
    public static string Save(string folder, ProgramModel model)
    {
        ArgumentNullException.ThrowIfNull(model);
        Directory.CreateDirectory(folder);
        string path = Path.Combine(folder, model.Name + ".json");
        File.WriteAllText(path, ToJson(model));
        return path;
    }

    /// <summary>The JSON text of <paramref name="model"/> (indented, camelCase, newline at the end).</summary>
    public static string ToJson(ProgramModel model) => JsonSerializer.Serialize(model, SimulationJsonContext.Default.ProgramModel) + "\n";

    /// <summary>Parses a model from JSON text.</summary>
    /// <exception cref="InvalidDataException">The text is not a valid model.</exception>
    public static ProgramModel FromJson(string json, string origin = "model")
    {
        using var stream = new MemoryStream(System.Text.Encoding.UTF8.GetBytes(json));
        return Deserialize(stream, origin);
    }

    private static ProgramModel Deserialize(Stream stream, string origin)
    {
        ProgramModel? model;
        try
        {
            model = JsonSerializer.Deserialize(stream, SimulationJsonContext.Default.ProgramModel);
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{origin} is not a valid model: {e.Message}", e);
        }

        if (model is null)
        {
            throw new InvalidDataException($"{origin} is empty.");
        }

        IReadOnlyList<string> problems = model.Validate();
        if (problems.Count > 0)
        {
            throw new InvalidDataException($"{origin}: {string.Join(" ", problems)}");
        }

        return model;
    }
}
