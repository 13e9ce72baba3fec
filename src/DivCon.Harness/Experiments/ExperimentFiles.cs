namespace DivCon.Harness.Experiments;

/// <summary>
/// Writes a set of files into a folder all or nothing: each goes to a hidden temporary file first, and only when every
/// one is written are they renamed into place; on failure the temporaries are deleted, so no partial result is left
/// looking like a result.
/// </summary>
public static class ExperimentFiles
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
                if (File.Exists(temp))
                {
                    File.Delete(temp);
                }
            }
        }
    }
}
