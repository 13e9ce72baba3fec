namespace DivCon.Metrics.Results;

/// <summary>
/// Writes the files of one result into a folder all or nothing: each goes to a hidden temporary file first, and only
/// when every one is written are they renamed into place; on failure the temporaries are deleted, so no partial result
/// is left looking like a result.
/// </summary>
public static class ResultFolder
{
    /// <summary>Writes <paramref name="files"/> (name → content) into <paramref name="folder"/>; returns their paths.</summary>
    public static IReadOnlyList<string> Write(string folder, IReadOnlyList<(string Name, byte[] Content)> files)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        ArgumentNullException.ThrowIfNull(files);
        Directory.CreateDirectory(folder);
        var temporary = new List<(string Temp, string Final)>();
        try
        {
            foreach (var (name, content) in files)
            {
                string final = Path.Combine(folder, name);
                string temp = Path.Combine(folder, $".{name}.{Environment.ProcessId}.tmp");
                temporary.Add((temp, final));
                File.WriteAllBytes(temp, content);
            }

            foreach (var (temp, final) in temporary)
            {
                File.Move(temp, final, overwrite: true);
            }

            return temporary.Select(t => t.Final).ToArray();
        }
        finally
        {
            foreach (var (temp, _) in temporary)
            {
                File.Delete(temp); // no-op once renamed into place
            }
        }
    }

    /// <summary>
    /// Checks that <paramref name="folder"/> can hold results: creates it if missing and writes and deletes a probe file.
    /// Returns null when it can, otherwise one sentence saying why not.
    /// </summary>
    public static string? CheckWritable(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        try
        {
            if (File.Exists(folder))
            {
                return $"'{folder}' is a file, not a folder.";
            }

            Directory.CreateDirectory(folder);
            string probe = Path.Combine(folder, $".divcon-probe-{Environment.ProcessId}-{Guid.NewGuid():N}");
            File.WriteAllText(probe, "probe");
            File.Delete(probe);
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
        {
            return $"cannot write to '{folder}': {e.Message}";
        }
    }
}
