'use strict'
const { observe, observeThrows } = require("./patchproof-oracle.cjs"); // sealed by patchproof witness seal

const { test } = require('node:test')
const assert = require('node:assert')
const FindMyWay = require('../..')

// What registering a route gives: "registered", or the error's message.
function tryOn (router, path, handler) {
  try {
    router.on('GET', path, handler)
    return 'registered'
  } catch (error) {
    return error.message
  }
}

test('two parameters joined by different static parts are two routes', () => {
  const router = FindMyWay()
  router.on('GET', '/files/:name-:ext', () => 'dash')
  observe("reproduction:interior-static-repro.test.js/20", () => (tryOn(router, '/files/:name.:ext', () => 'dot')))
})

test('a static part between later parameters tells routes apart', () => {
  const router = FindMyWay()
  router.on('GET', '/shop/:city-:area/items-c:cat-r:id', () => 'regular')
  observe("reproduction:interior-static-repro.test.js/26", () => (tryOn(router, '/shop/:city-:area/items-c:cat-s:id', () => 'sale')))
})
