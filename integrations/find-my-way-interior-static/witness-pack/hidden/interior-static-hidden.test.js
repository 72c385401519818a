'use strict'
const { observe, observeThrows } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal

const { test } = require('node:test')
const assert = require('node:assert')
const FindMyWay = require('../..')

function tryOn (router, path, handler) {
  try {
    router.on('GET', path, handler)
    return 'registered'
  } catch (error) {
    return error.message
  }
}

function found (router, path) {
  const match = router.find('GET', path)
  return match === null ? 'none' : match.handler()
}

test('each of two dash/dot routes gets its own requests', () => {
  const router = FindMyWay()
  router.on('GET', '/doc/:a-:b', () => 'dash')
  tryOn(router, '/doc/:a.:b', () => 'dot')
  observe("hidden:interior-static-hidden.test.js/25", () => (found(router, '/doc/x-y')))
  observe("hidden:interior-static-hidden.test.js/26", () => (found(router, '/doc/x.y')))
})

test('the parameters of the second route are parsed', () => {
  const router = FindMyWay()
  router.on('GET', '/doc/:a-:b', () => 'dash')
  tryOn(router, '/doc/:a.:b', () => 'dot')
  observe("hidden:interior-static-hidden.test.js/33", () => ({ ...router.find('GET', '/doc/left.right').params }))
})

test('routes that differ only in a later interior static part are found apart', () => {
  const router = FindMyWay()
  router.on('GET', '/h/:c-:p/x-c:i-r:j', () => 'r')
  tryOn(router, '/h/:c-:p/x-c:i-a:j', () => 'a')
  observe("hidden:interior-static-hidden.test.js/40", () => (found(router, '/h/one-two/x-c3-r4')))
  observe("hidden:interior-static-hidden.test.js/41", () => (found(router, '/h/one-two/x-c3-a4')))
})

test('findRoute returns the route whose interior static part matches', () => {
  const router = FindMyWay()
  router.on('GET', '/h/:c-:p/x-c:i-r:j', () => 'r')
  tryOn(router, '/h/:c-:p/x-c:i-a:j', () => 'a')
  const route = router.findRoute('GET', '/h/:c-:p/x-c:i-a:j')
  observe("hidden:interior-static-hidden.test.js/49", () => (route === null ? 'none' : route.handler()))
})

test('hasRoute knows the second of two routes', () => {
  const router = FindMyWay()
  router.on('GET', '/v/:a-:b', () => 'dash')
  tryOn(router, '/v/:a.:b', () => 'dot')
  observe("hidden:interior-static-hidden.test.js/56", () => (router.hasRoute('GET', '/v/:a.:b')))
  observe("hidden:interior-static-hidden.test.js/57", () => (router.hasRoute('GET', '/v/:a_:b')))
})

test('three parameters with different separators are distinct', () => {
  const router = FindMyWay()
  router.on('GET', '/t/:a-:b-:c', () => 'dashes')
  observe("hidden:interior-static-hidden.test.js/63", () => (tryOn(router, '/t/:a-:b.:c', () => 'dash-dot')))
  observe("hidden:interior-static-hidden.test.js/64", () => (found(router, '/t/1-2.3')))
  observe("hidden:interior-static-hidden.test.js/65", () => ({ ...router.find('GET', '/t/1-2-3').params }))
})

test('the very same route is still refused a second time', () => {
  const router = FindMyWay()
  router.on('GET', '/d/:a-:b', () => 'first')
  observe("hidden:interior-static-hidden.test.js/71", () => (/already declared/.test(tryOn(router, '/d/:a-:b', () => 'again'))))
})
