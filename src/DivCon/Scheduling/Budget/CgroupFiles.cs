namespace DivCon.Scheduling;

/// <summary>
/// The files the CPU budget is read from (<c>/proc/self/mountinfo</c>, <c>/proc/self/cgroup</c>, the cgroup's
/// <c>cpu.*</c> and <c>cpuset.*</c> files), behind one method so that the parsing can be tested on recorded files.
/// Paths are absolute, as the kernel names them.
/// </summary>
internal interface ICgroupFiles
{
    /// <summary>The whole text of the file, or null when it does not exist or cannot be read.</summary>
    string? ReadText(string path);
}

/// <summary>
/// Reads the absolute paths under a root folder: <c>/</c> for the real files, or a folder holding a recorded tree
/// (<c>proc/self/cgroup</c>, <c>sys/fs/cgroup/…</c>) for tests.
/// </summary>
internal sealed class RootedCgroupFiles : ICgroupFiles
{
    /// <summary>The files of this machine.</summary>
    public static readonly RootedCgroupFiles System = new("/");

    private readonly string _root;

    public RootedCgroupFiles(string root)
    {
        ArgumentException.ThrowIfNullOrEmpty(root);
        _root = root;
    }

    public string? ReadText(string path)
    {
        string full = _root == "/" ? path : Path.Join(_root, path);
        try
        {
            return File.ReadAllText(full);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException)
        {
            // Missing (no controller at this level, no cgroup file system) or unreadable: the caller treats both as
            // "nothing said here" and notes it where it matters.
            return null;
        }
    }
}
