using System.Text.Json;
using System.Text.Json.Serialization;

namespace DivCon.Harness.Scalability;

/// <summary>
/// Measured scalabilities kept in a JSON file, keyed by program, size and machine, so the one-off measurement
/// (§7.4) is reused by later runs. Not safe for concurrent writers: one harness process owns a cache file at a
/// time. Writes replace the file atomically (write a temporary file, then move it over), so a crash leaves the old
/// file or the new one, never half of one.
/// </summary>
public sealed class ScalabilityCache
{
    private const int FormatVersion = 1;

    private static readonly JsonSerializerOptions s_json = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
    };

    private readonly string _path;
    private readonly object _lock = new();

    /// <summary>A cache stored at <paramref name="path"/> (created on the first store; its folder too).</summary>
    public ScalabilityCache(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        _path = Path.GetFullPath(path);
    }

    /// <summary>The file's full path.</summary>
    public string FilePath => _path;

    /// <summary>
    /// The stored measurement of <paramref name="program"/> at <paramref name="size"/> on <paramref name="machine"/>,
    /// or <see langword="null"/>. A missing, unreadable or foreign-format file counts as empty.
    /// </summary>
    public ScalabilityMeasurement? Find(string program, string size, MachineIdentity machine)
    {
        ArgumentNullException.ThrowIfNull(program);
        ArgumentNullException.ThrowIfNull(size);
        ArgumentNullException.ThrowIfNull(machine);
        lock (_lock)
        {
            return Load().FirstOrDefault(e => Matches(e, program, size, machine));
        }
    }

    /// <summary>Stores <paramref name="measurement"/>, replacing any entry with the same program, size and machine.</summary>
    public void Store(ScalabilityMeasurement measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        lock (_lock)
        {
            var entries = Load().Where(e => !Matches(e, measurement.Program, measurement.Size, measurement.Machine)).ToList();
            entries.Add(measurement);
            string? folder = Path.GetDirectoryName(_path);
            if (!string.IsNullOrEmpty(folder))
            {
                Directory.CreateDirectory(folder);
            }

            string temp = _path + "." + Environment.ProcessId.ToString(System.Globalization.CultureInfo.InvariantCulture) + ".tmp";
            File.WriteAllText(temp, JsonSerializer.Serialize(new CacheFile(FormatVersion, entries), s_json));
            File.Move(temp, _path, overwrite: true);
        }
    }

    /// <summary>Every stored measurement (empty for a missing or unreadable file).</summary>
    public IReadOnlyList<ScalabilityMeasurement> Entries()
    {
        lock (_lock)
        {
            return Load();
        }
    }

    private static bool Matches(ScalabilityMeasurement e, string program, string size, MachineIdentity machine) =>
        string.Equals(e.Program, program, StringComparison.OrdinalIgnoreCase)
        && string.Equals(e.Size, size, StringComparison.OrdinalIgnoreCase)
        && e.Machine == machine;

    private List<ScalabilityMeasurement> Load()
    {
        if (!File.Exists(_path))
        {
            return [];
        }

        try
        {
            CacheFile? file = JsonSerializer.Deserialize<CacheFile>(File.ReadAllText(_path), s_json);
            if (file is null || file.Version != FormatVersion || file.Entries is null)
            {
                return [];
            }

            return file.Entries.Where(e => e?.Machine is not null && e.Points is not null && e.Program is not null && e.Size is not null).ToList();
        }
        catch (JsonException)
        {
            // A damaged cache is only a lost optimisation: measure again and overwrite it.
            return [];
        }
    }

    private sealed record CacheFile(
        [property: JsonPropertyName("version")] int Version,
        [property: JsonPropertyName("entries")] List<ScalabilityMeasurement> Entries);
}
