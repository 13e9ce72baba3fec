namespace DivCon.Partitioning;

/// <summary>One core moved from one program to another while a plan is built.</summary>
/// <param name="From">Index of the program that gave the core.</param>
/// <param name="To">Index of the program that received it.</param>
public readonly record struct CoreTransfer(int From, int To);
