'use strict'

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
  assert.strictEqual(found(router, '/doc/x-y'), 'dash')
  assert.strictEqual(found(router, '/doc/x.y'), 'dot')
})

test('the parameters of the second route are parsed', () => {
  const router = FindMyWay()
  router.on('GET', '/doc/:a-:b', () => 'dash')
  tryOn(router, '/doc/:a.:b', () => 'dot')
  assert.deepStrictEqual({ ...router.find('GET', '/doc/left.right').params }, { a: 'left', b: 'right' })
})

test('routes that differ only in a later interior static part are found apart', () => {
  const router = FindMyWay()
  router.on('GET', '/h/:c-:p/x-c:i-r:j', () => 'r')
  tryOn(router, '/h/:c-:p/x-c:i-a:j', () => 'a')
  assert.strictEqual(found(router, '/h/one-two/x-c3-r4'), 'r')
  assert.strictEqual(found(router, '/h/one-two/x-c3-a4'), 'a')
})

test('findRoute returns the route whose interior static part matches', () => {
  const router = FindMyWay()
  router.on('GET', '/h/:c-:p/x-c:i-r:j', () => 'r')
  tryOn(router, '/h/:c-:p/x-c:i-a:j', () => 'a')
  const route = router.findRoute('GET', '/h/:c-:p/x-c:i-a:j')
  assert.strictEqual(route === null ? 'none' : route.handler(), 'a')
})

test('hasRoute knows the second of two routes', () => {
  const router = FindMyWay()
  router.on('GET', '/v/:a-:b', () => 'dash')
  tryOn(router, '/v/:a.:b', () => 'dot')
  assert.strictEqual(router.hasRoute('GET', '/v/:a.:b'), true)
  assert.strictEqual(router.hasRoute('GET', '/v/:a_:b'), false)
})

test('three parameters with different separators are distinct', () => {
  const router = FindMyWay()
  router.on('GET', '/t/:a-:b-:c', () => 'dashes')
  assert.strictEqual(tryOn(router, '/t/:a-:b.:c', () => 'dash-dot'), 'registered')
  assert.strictEqual(found(router, '/t/1-2.3'), 'dash-dot')
  assert.deepStrictEqual({ ...router.find('GET', '/t/1-2-3').params }, { a: '1', b: '2', c: '3' })
})

test('the very same route is still refused a second time', () => {
  const router = FindMyWay()
  router.on('GET', '/d/:a-:b', () => 'first')
  assert.strictEqual(/already declared/.test(tryOn(router, '/d/:a-:b', () => 'again')), true)
})
