using System.Reflection;

namespace DivCon.Cli.Commands;

/// <summary>
/// How to start this command line again as a child process (the invocations of <c>divcon cyclic --repeat N</c>): the
/// executable, and the arguments that come before the command's own (the entry assembly when the host is
/// <c>dotnet</c>).
/// </summary>
/// <param name="FileName">The executable.</param>
/// <param name="PrefixArguments">Arguments before the command's.</param>
internal sealed record CliSelf(string FileName, IReadOnlyList<string> PrefixArguments)
{
    /// <summary>
    /// This process: its executable when it is the <c>divcon</c> app host (<c>dotnet run</c>, an installed tool), or
    /// <c>dotnet</c> with the entry assembly when it was started as <c>dotnet DivCon.Cli.dll</c>. Null when neither can
    /// be told (then only one invocation can run).
    /// </summary>
    public static CliSelf? Current()
    {
        string? process = Environment.ProcessPath;
        if (process is null)
        {
            return null;
        }

        if (!string.Equals(Path.GetFileNameWithoutExtension(process), "dotnet", StringComparison.OrdinalIgnoreCase))
        {
            return new CliSelf(process, []);
        }

        string? entry = Assembly.GetEntryAssembly()?.Location;
        return string.IsNullOrEmpty(entry) || !string.Equals(Path.GetFileName(entry), "DivCon.Cli.dll", StringComparison.OrdinalIgnoreCase)
            ? null
            : new CliSelf(process, [entry]);
    }
}
