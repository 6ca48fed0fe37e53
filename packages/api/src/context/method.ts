import type { AreaName, Contract, Method, MethodName, OutputOf, ParsedInputOf } from '@medlocker/core';
import type { StaffActor } from './actor.ts';
import type { AppDeps } from './deps.ts';

/*
 * The input and output of a method of core's contract, named by area and method as the RPC path names
 * them, and the service function `(deps, actor, input)` that serves it:
 * `export const search: Service<'audit/search'> = async (deps, actor, input) => { … }`.
 */

type Def<A extends AreaName, M extends MethodName<A>> = Contract[A][M] extends Method ? Contract[A][M] : never;

/** A method's input once the contract's schema has checked and normalised it. */
export type MethodIn<A extends AreaName, M extends MethodName<A>> = ParsedInputOf<Def<A, M>>;

/** What a method answers. */
export type MethodOut<A extends AreaName, M extends MethodName<A>> = OutputOf<Def<A, M>>;

/** A method of core's contract named as its RPC path names it, `area/method`: `'audit/search'`. */
export type MethodPath = { [A in AreaName]: `${A}/${MethodName<A> & string}` }[AreaName];

type AreaOf<P extends MethodPath> = P extends `${infer A extends AreaName}/${string}` ? A : never;
type NameOf<P extends MethodPath> = P extends `${AreaOf<P>}/${infer M extends MethodName<AreaOf<P>>}` ? M : never;

/** The input a service function is given for the method at a path (`In<'audit/search'>`), checked and normalised. */
export type In<P extends MethodPath> = MethodIn<AreaOf<P>, NameOf<P>>;

/** What a service function answers for the method at a path (`Out<'audit/search'>`). */
export type Out<P extends MethodPath> = Promise<MethodOut<AreaOf<P>, NameOf<P>>>;

/**
 * A service function serving the method at a path: given the app's dependencies, the caller (staff unless
 * said otherwise, `Service<'auth/login', Actor>`) and the checked input, it answers the method's output.
 */
export type Service<P extends MethodPath, A = StaffActor> = (deps: AppDeps, actor: A, input: In<P>) => Out<P>;
