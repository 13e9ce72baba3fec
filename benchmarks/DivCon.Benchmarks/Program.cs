using BenchmarkDotNet.Running;

namespace DivCon.Benchmarks;

/// <summary>Entry point: <c>dotnet run -c Release --project benchmarks/DivCon.Benchmarks -- --filter '*'</c>.</summary>
public static class Program
{
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
